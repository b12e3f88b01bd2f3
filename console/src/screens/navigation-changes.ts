import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

/** An area whose links depend on something learnt later (incident management on or off) says so when it knows. */
export function navigationChanged(): void {
  listeners.forEach((listener) => listener());
}

/** Draws the caller again whenever an area's links may have changed. */
export function useNavigationChanges(): void {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const listener = () => setVersion((v) => v + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
}
