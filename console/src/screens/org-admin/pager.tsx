/** Previous and next page of a paged list, and where the reader is in it. */
export function Pager({
  page,
  perPage,
  total,
  onPage,
  what,
}: {
  page: number;
  perPage: number;
  total: number;
  onPage: (page: number) => void;
  what: string;
}) {
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (total === 0) return null;
  const first = (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  return (
    <nav class="pager" aria-label={`Pages of ${what}`}>
      {pages > 1 ? (
        <button type="button" class="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous page
        </button>
      ) : null}
      <span role="status">
        {first}–{last} of {total} {what}
      </span>
      {pages > 1 ? (
        <button type="button" class="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next page
        </button>
      ) : null}
    </nav>
  );
}
