// Renders Devflow knowledge files with Devflow's own formatter
// (src/assets/scripts/hooks/lib/decisions-format.cjs) from rows of its tests.
const f = require(process.argv[2] + '/src/assets/scripts/hooks/lib/decisions-format.cjs');
const fs = require('fs');
const out = process.argv[3];
const decisions = [
  { anchor_id: 'ADR-001', pattern: 'Use Result types everywhere', id: 'obs_abc123', date: '2026-04-10',
    details: 'context: TypeScript project; decision: always return Result<T,E>; rationale: functional error handling' },
  { anchor_id: 'ADR-007', pattern: 'Hook debug tracing must be a single global toggle', id: 'obs_dbg007', date: '2026-04-12',
    details: 'context: adding debug tracing to sidecar-capture; decision: implement DEVFLOW_HOOK_DEBUG=1; rationale: cross-hook interaction visibility' },
];
const pitfalls = [
  { anchor_id: 'PF-007', pattern: 'Editing installed hook scripts directly', id: 'obs_pf007',
    details: 'area: src/assets/scripts/hooks/; issue: edits to installed copies; impact: silently overwritten; resolution: edit source + rebuild + reinstall' },
];
fs.writeFileSync(out + '/decisions.md', f.initDecisionsContent('decision') + decisions.map(f.formatDecisionBody).join(''));
fs.writeFileSync(out + '/pitfalls.md', f.initDecisionsContent('pitfall') + pitfalls.map(f.formatPitfallBody).join(''));
