import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** Draws the response-time chart into `element` (its own chunk: the overview never loads uPlot). */
export function drawChart(element: HTMLElement, data: Array<Array<number | null>>, labels: string[], palette: string[]): uPlot {
  const style = getComputedStyle(element);
  const text = style.getPropertyValue('color') || '#1b1f24';
  const grid = style.getPropertyValue('--border').trim() || '#d5dae1';
  const down = style.getPropertyValue('--down').trim() || '#c62828';
  const series: uPlot.Series[] = [{}];
  labels.forEach((label, index) => {
    if (label === 'failures') {
      series.push({
        label: 'Failures',
        stroke: down,
        fill: down,
        paths: () => null,
        points: { show: true, size: 7, fill: down },
        value: (_u, v) => (v === null ? '—' : 'failed'),
      });
      return;
    }
    const colour = palette[Math.floor(index / 2) % palette.length]!;
    series.push({
      label,
      stroke: colour,
      width: index % 2 === 0 ? 2 : 1,
      dash: index % 2 === 0 ? undefined : [5, 4],
      spanGaps: false,
      value: (_u, v) => (v === null ? '—' : `${Math.round(v)} ms`),
    });
  });
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  return new uPlot(
    {
      width: element.clientWidth || 600,
      height: 240,
      series,
      axes: [axis, { ...axis, values: (_u, ticks) => ticks.map((t) => `${t} ms`), size: 64 }],
      scales: { y: { range: (_u, _min, max) => [0, Math.max(10, max * 1.1)] } },
      legend: { live: true },
    },
    data as uPlot.AlignedData,
    element,
  );
}
