/**
 * The ingest limits count in fixed windows (a minute from each whole minute: AdmitImEvent and the
 * shared rate counter). A test that fills a window and expects the next request refused must do so
 * inside one window: started close to a window's end, its requests would spread over two and the
 * refusal never come. Waits for the next window when less than `needMs` of the current one is left.
 */
export async function withinOneWindow(needMs: number, windowMs = 60_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
