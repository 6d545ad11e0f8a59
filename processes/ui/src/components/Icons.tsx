/** Small inline icons (no icon font: the CSP allows no remote fonts). */
import type { JSX } from 'preact';

const base = { width: 16, height: 16, viewBox: '0 0 16 16', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.5, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' } as const;

export const Chevron = ({ open }: { open: boolean }) => (
  <svg {...base} class={`chevron${open ? ' open' : ''}`} aria-hidden="true">
    <path d="M6 4l4 4-4 4" />
  </svg>
);
export const FolderIcon = () => (
  <svg {...base} aria-hidden="true">
    <path d="M2 4.5h4l1.5 1.5H14v6.5H2z" />
  </svg>
);
export const ApiIcon = () => (
  <svg {...base} aria-hidden="true">
    <path d="M3 8h10M8 3v10" />
    <circle cx="8" cy="8" r="5.5" />
  </svg>
);
export const ProjectIcon = () => (
  <svg {...base} aria-hidden="true">
    <rect x="2" y="2.5" width="12" height="11" rx="1.5" />
    <path d="M2 6h12" />
  </svg>
);
export const MockIcon = () => (
  <svg {...base} aria-hidden="true">
    <rect x="2.5" y="3" width="11" height="10" rx="2" />
    <path d="M5.5 7h5M5.5 10h3" />
  </svg>
);
export const CloseIcon = () => (
  <svg {...base} aria-hidden="true">
    <path d="M4.5 4.5l7 7M11.5 4.5l-7 7" />
  </svg>
);
export const SearchIcon = () => (
  <svg {...base} aria-hidden="true">
    <circle cx="7" cy="7" r="4.5" />
    <path d="M10.5 10.5L14 14" />
  </svg>
);
export const PlusIcon = () => (
  <svg {...base} aria-hidden="true">
    <path d="M8 3v10M3 8h10" />
  </svg>
);
export const SunIcon = () => (
  <svg {...base} aria-hidden="true">
    <circle cx="8" cy="8" r="3" />
    <path d="M8 1.5v1.5M8 13v1.5M1.5 8H3M13 8h1.5M3.4 3.4l1 1M11.6 11.6l1 1M3.4 12.6l1-1M11.6 4.4l1-1" />
  </svg>
);
export const MoonIcon = () => (
  <svg {...base} aria-hidden="true">
    <path d="M13 9.5A5.5 5.5 0 016.5 3a5.5 5.5 0 106.5 6.5z" />
  </svg>
);

export function MethodBadge({ method, small }: { method: string; small?: boolean }): JSX.Element {
  const m = method.toUpperCase();
  const short = m === 'DELETE' ? 'DEL' : m === 'OPTIONS' ? 'OPT' : m === 'PATCH' ? 'PATCH' : m;
  return <span class={`method method-${m.toLowerCase()}${small ? ' small' : ''}`}>{short}</span>;
}
