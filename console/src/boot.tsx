import { render } from 'preact';
import { App } from './app';

/** Draws the console into `root`. */
export function boot(root: HTMLElement): void {
  render(<App />, root);
}
