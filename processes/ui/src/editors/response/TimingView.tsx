/** A waterfall of the send's phases. */
import type { Timing } from '../../../../../protocol/model/exchange.js';

const PHASES: [keyof Timing, string][] = [
  ['dns', 'DNS lookup'],
  ['connect', 'TCP connect'],
  ['tls', 'TLS handshake'],
  ['send', 'Request sent'],
  ['wait', 'Waiting (first byte)'],
  ['download', 'Download'],
];

export function TimingView({ timing }: { timing: Timing }) {
  const total = Math.max(timing.total, PHASES.reduce((sum, [k]) => sum + timing[k], 0), 0.001);
  let offset = 0;
  return (
    <div class="waterfall">
      {PHASES.map(([key, label]) => {
        const ms = timing[key];
        const left = (offset / total) * 100;
        offset += ms;
        return (
          <div key={key} class="wf-row">
            <span class="wf-label">{label}</span>
            <span class="wf-track">
              <span class={`wf-bar wf-${key}`} style={{ left: `${left}%`, width: `${Math.max((ms / total) * 100, ms > 0 ? 0.5 : 0)}%` }} />
            </span>
            <span class="wf-ms mono">{ms.toFixed(2)} ms</span>
          </div>
        );
      })}
      <div class="wf-row wf-total">
        <span class="wf-label">Total</span>
        <span class="wf-track" />
        <span class="wf-ms mono">{timing.total.toFixed(2)} ms</span>
      </div>
    </div>
  );
}
