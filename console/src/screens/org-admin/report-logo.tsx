import { useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { useSubmission } from '../../components/use-submission';

/** A file's bytes as base64 (what PUT /api/organization/report-logo takes). */
async function base64Of(file: File): Promise<string> {
  const view = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < view.length; i += 0x8000) binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The logo on the first page of every report: upload a PNG or JPEG, or remove it. */
export function ReportLogo() {
  const [file, setFile] = useState<File | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const put = (image: string | null, said: string) => async () => {
    setDone(null);
    await ok(api.PUT('/api/organization/report-logo', { body: { image } }));
    setDone(said);
  };
  const upload = useSubmission(async () => {
    if (!file) return 'Choose a PNG or JPEG file first.';
    await put(await base64Of(file), 'The logo is set: the next reports carry it.')();
  });
  const removal = useSubmission(put(null, 'The logo is removed.'));
  return (
    <form class="panel" onSubmit={upload.submit} noValidate aria-labelledby="logo-title">
      <h2 id="logo-title">Report logo</h2>
      <p class="muted">Shown beside the organization's name on the first page of every report: PNG or JPEG, 512 KB at most.</p>
      <Field label="Logo file" id="report-logo" error={upload.fieldError('image')}>
        <input id="report-logo" type="file" accept="image/png,image/jpeg" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
      </Field>
      <ErrorText message={upload.message ?? removal.message} />
      {done ? <p role="status">{done}</p> : null}
      <div class="org-actions">
        <button type="submit" disabled={upload.busy}>
          Upload logo
        </button>
        <button type="button" class="secondary" disabled={removal.busy} onClick={removal.submit}>
          Remove logo
        </button>
      </div>
    </form>
  );
}
