import compression from 'compression';
import type { RequestHandler } from 'express';

/** Answers smaller than this travel as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Answers of a compressible type (JSON, HTML, text, SVG) and of 1 KB or more travel compressed,
 * Brotli or gzip as the client accepts (Vary: Accept-Encoding), at a fast level (the JSON lists of
 * thousands of monitors shrink to about a tenth). Never the event stream: each event must leave at
 * once, and a compressor holds bytes back. Nothing already encoded (the console's precompressed
 * assets) or of a compressed type (zip archives, PDFs, PNGs).
 */
export const compressedAnswers: RequestHandler = compression({
  threshold: COMPRESSION_THRESHOLD_BYTES,
  filter: (req, res) => !String(res.getHeader('content-type') ?? '').startsWith('text/event-stream') && compression.filter(req, res),
});
