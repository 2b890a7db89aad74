// Regenerates calls.json: the decisions of lessons-learned's own matcher
// (core/match.mjs of the checkout named by LL_REPO) for the calls below,
// on lesson-manifest.json. Run: LL_REPO=/path/to/lessons-learned node oracle.mjs
import { readFileSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const { matchLessons, findBlocker } = await import(join(process.env.LL_REPO, 'core/match.mjs'));
const manifest = JSON.parse(readFileSync('lesson-manifest.json', 'utf8'));
const ROOT = '/w/'; // a root no path pattern names (a real one may: "repo", "service")

// The calls of lessons-learned's own tests (tests/**/*.test.mjs), paths
// under their /project root, then every tool call of lore's transcript
// fixtures, paths made relative to the session's cwd.
const calls = [
  ...['echo hello', 'ls', 'ls -la', 'npm install', 'pytest', 'pytest --no-header', 'pytest tests/',
    'pytest tests/ --no-header', 'pytest tests/ -v', 'rm -rf /tmp/dangerous', 'grep foo', '.env']
    .map(command => ({ tool: 'Bash', command })),
  ...['src/main.py', 'tests/test_auth.py', 'tests/test_new.py', 'tests/test_service.py', '.env']
    .map(path => ({ tool: 'Read', path })),
  // match.test.mjs and hook-pipeline.test.mjs: an Edit's path and added text
  { tool: 'Edit', path: 'src/app/api/x/route.ts', content: 'const r = await generateObject({ model })' },
  { tool: 'Edit', path: 'src/app/api/x/route.ts', content: 'export async function GET() { return Response.json({}) }' },
  { tool: 'Edit', path: 'src/app/api/x/route.ts' },
  { tool: 'Edit', path: 'a.ts', content: 'x TODO y' },
  { tool: 'Edit', path: 'a.ts', content: 'no marker' },
  { tool: 'Edit', path: 'tests/test_auth.py', content: '@patch("app.auth.verify")\ndef test_login(mock_verify):\n    ...' },
  { tool: 'Edit', path: 'tests/test_auth.py', content: 'def test_addition():\n    assert 1 + 1 == 2' },
];
// Constructed for lore: every path below with every text below, by Edit
// and by Write, so that each lesson that tests the added text meets texts
// that match its patterns (and quoted or later-line variants) on files its
// path patterns name and on files they do not.
const PATHS = ['scripts/deploy.sh', 'vercel.json', 'db/migrations/001_init.sql', 'Dockerfile', 'src/lib/ai.ts',
  'src/providers/openai.ts', 'src/app/api/x/route.ts', 'pages/api/hello.js', 'tests/test_auth.py', 'README.md'];
const TEXTS = ['eval "$cmd"', 'echo "eval $cmd"', 'set -euo pipefail', 'claude -p "summarize"', "spawn('claude', args)",
  'npx vercel --prod', 'psql -c "select 1"', 'alembic upgrade head', 'const apiKey = process.env.OPENAI_API_KEY',
  'const s = text.slice(0, 100)', 'ADD --chmod 755 run.sh /app/', 'RUN true\nADD --chmod 755 run.sh /app/',
  'const r = await generateObject({ model })', 'model: "o3", reasoning_effort: "high"', 'model: "O3-MINI"',
  '// eslint-disable-next-line @typescript-eslint/no-require-imports\nconst x = require("x")',
  '"build": "tsc --noEmit"', 'import { waitUntil } from "@vercel/functions"', 'agents that edit code', 'uvx --from git+https://x/y tool',
  'npx -y foo@latest', 'mv a b', 'the plan is', 'x TODO y', 'no marker'];
for (const path of PATHS) for (const content of TEXTS) for (const tool of ['Edit', 'Write']) calls.push({ tool, path, content });
function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.jsonl')) transcript(p);
  }
}
function transcript(file) {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    let rec;
    try { rec = JSON.parse(line); } catch { continue; }
    const content = rec?.message?.content;
    if (rec.type !== 'assistant' || !Array.isArray(content)) continue;
    for (const c of content) {
      if (c.type !== 'tool_use') continue;
      const inp = c.input ?? {};
      if (c.name === 'Bash') calls.push({ tool: 'Bash', command: inp.command ?? '' });
      else if (['Read', 'Edit', 'Write', 'MultiEdit'].includes(c.name) && inp.file_path && rec.cwd &&
        inp.file_path.startsWith(rec.cwd + '/')) {
        const call = { tool: c.name, path: relative(rec.cwd, inp.file_path) };
        const added = c.name === 'Write' ? inp.content : c.name === 'Edit' ? inp.new_string :
          c.name === 'MultiEdit' ? (inp.edits ?? []).map(e => e?.new_string ?? '').join('\n') : '';
        if (added) call.content = added;
        calls.push(call);
      } else if (['Task', 'WebFetch', 'ExitPlanMode', 'Agent'].includes(c.name)) calls.push({ tool: c.name });
    }
  }
}
walk(process.argv[2] ?? '../../../../../capture/scan/testdata/transcripts');

const seen = new Set();
const out = [];
for (const call of calls) {
  const key = JSON.stringify(call);
  if (seen.has(key)) continue;
  seen.add(key);
  const m = matchLessons(manifest.lessons, call.tool, call.command ?? '', call.path ? ROOT + call.path : '', null, call.content ?? '');
  const blocker = m.find(x => x.type === 'guard');
  out.push({ ...call, matches: m.map(x => x.id).sort(), ...(blocker ? { blocked: blocker.id } : {}) });
}
writeFileSync('calls.json', JSON.stringify(out, null, 1) + '\n');
