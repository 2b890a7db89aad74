# Writes hooks/testdata/realcalls: the stores (stores/*/.lore) and the
# labelled calls (calls.jsonl, prompts.json). Run from the repository root
# after removing stores/: python3 hooks/testdata/realcalls/gen.py
#
# The labels are each item's intent written as a rule over the call (what
# the command runs outside quotes, the file an edit touches and the code it
# adds, what the prompt asks for), not the item's triggers; every call a
# rule labels, and every disagreement with the hook, was read by hand.
import collections, glob, json, os, re

# --- the stores, as each project's team would write them
BASE = 'hooks/testdata/realcalls/stores'
B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
n = [0]
def ulid():
    n[0] += 1; s = ""; k = n[0]
    for _ in range(4):
        s = B32[k % 32] + s; k //= 32
    return "01JRQABE" + "0" * 14 + s
def q(s): return "'" + s.replace("'", "''") + "'"
def item(store, slug, kind, title, prio, trig, body, deny=False, ref=None):
    folder = {'lesson': 'lessons', 'pitfall': 'pitfalls', 'decision': 'decisions'}[kind]
    name = slug + '.md'
    if ref: name = ref + '-' + slug + '.md'
    fm = ['---', 'id: ' + ulid(), 'kind: ' + kind, 'title: ' + json.dumps(title), 'status: ' + ('accepted' if kind == 'decision' else 'active'), 'priority: ' + prio]
    if ref: fm.append('ref: ' + ref)
    if deny: fm.append('enforce: deny')
    fm.append('triggers:')
    for k in ('tools', 'commands', 'paths', 'content', 'unless', 'keywords'):
        if k in trig: fm.append('  %s: [%s]' % (k, ', '.join(q(v) for v in trig[k])))
    fm.append('---')
    secs = {'lesson': ('Mistake', 'Fix'), 'pitfall': ('Issue', 'Avoid'), 'decision': ('Context', 'Decision')}[kind]
    text = '\n'.join(fm) + '\n\n## %s\n%s\n\n## %s\n%s\n' % (secs[0], body[0], secs[1], body[1])
    p = os.path.join(BASE, store, '.lore', folder, name)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, 'w').write(text)
B = ['Bash']; EW = ['Edit', 'Write']
# common: guards and habits every one of these teams shares
item('common', 'force-push', 'pitfall', 'Force push drops teammates\' commits', 'critical',
     {'tools': B, 'commands': [r'\bgit\s+push\b.*(--force\b|\s-f\b)'], 'unless': ['--force-with-lease']},
     ('A plain `git push --force` replaced the remote branch with the local one and dropped two commits a teammate had pushed in the meantime.',
      'Use `git push --force-with-lease`: it refuses when the remote moved since your last fetch.'), deny=True, ref='PF-0001')
item('common', 'reset-hard', 'pitfall', 'git reset --hard throws away uncommitted work', 'critical',
     {'tools': B, 'commands': [r'\bgit\s+reset\s+(\S+\s+)*--hard\b']},
     ('`git reset --hard` discarded edits that were never committed or stashed; git cannot bring them back.',
      'Commit or `git stash -u` first, or use `git reset --keep`, which refuses to overwrite local changes.'), deny=True, ref='PF-0002')
item('common', 'interactive-rebase', 'pitfall', 'Interactive rebase needs an editor the agent does not have', 'critical',
     {'tools': B, 'commands': [r'\bgit\s+rebase\s+(\S+\s+)*(-i|--interactive)\b'], 'unless': ['GIT_SEQUENCE_EDITOR=']},
     ('`git rebase -i` opens the todo list in an editor; from an agent shell it either hangs or applies the todo unchanged, and piping a todo on stdin does not reach it.',
      'Write the todo with `GIT_SEQUENCE_EDITOR="sed -i ..." git rebase -i`, or rebuild the branch with `git cherry-pick` of the commits you keep.'), deny=True, ref='PF-0003')
item('common', 'rm-rf-root', 'pitfall', 'rm -rf on /, ~, $HOME, .. or *', 'critical',
     {'tools': B, 'commands': [r'\brm\s+-\w*[rR]\w*\s+"?(/|~/?|\$HOME/?|\*|\.\./?)"?(\s|$)']},
     ('A recursive delete with a root-like argument removes far more than the folder meant.',
      'Name the exact folder: `rm -rf ./build`.'), deny=True, ref='PF-0004')
item('common', 'amend-pushed', 'lesson', 'Amending a commit that is already pushed', 'high',
     {'tools': B, 'commands': [r'\bgit\s+(\S+\s+)*commit\b.*--amend\b']},
     ('`git commit --amend` on a commit already on the remote rewrote it, and the next push needed a force push over a branch others had fetched.',
      'Check `git status` says "ahead" and the commit is not on the remote; otherwise add a new commit.'))
item('common', 'git-add-all', 'lesson', 'git add -A stages scratch files', 'medium',
     {'tools': B, 'commands': [r'^git\s+add\s+(-A|--all|\.)(\s|$)']},
     ('`git add -A` staged a plan.md, a .entire/ log and a test binary along with the change.',
      'Stage the files by name (`git add path/a path/b`) and look at `git status --short` first.'))
item('common', 'git-add-force', 'lesson', 'git add -f on an ignored file', 'medium',
     {'tools': B, 'commands': [r'^git\s+add\s+(\S+\s+)*(-f|--force)(\s|$)']},
     ('A file ignored on purpose (built assets) was force-added and then went stale in every later commit.',
      'Check why `.gitignore` ignores it (`git check-ignore -v FILE`); fix the ignore rule rather than forcing.'))
item('common', 'gh-api-paginate', 'lesson', 'gh api returns only the first page of PR comments', 'medium',
     {'tools': B, 'commands': [r'^gh\s+api\s+\S*/(comments|reviews)\b'], 'unless': ['--paginate']},
     ('`gh api repos/O/R/pulls/N/comments` returned 30 comments and the review round missed the rest.',
      'Pass `--paginate` (and `--jq` after it) for every list endpoint.'))
item('common', 'gh-pr-diff-stat', 'lesson', 'gh pr diff has no --stat', 'high',
     {'tools': B, 'commands': [r'^gh\s+pr\s+diff\b.*\s--stat\b']},
     ('`gh pr diff N --stat` fails with "unknown flag: --stat".',
      'Use `gh pr diff N --name-only`, or `gh pr view N --json files` for per-file counts.'))
item('common', 'dotenv', 'pitfall', '.env files hold live credentials', 'high',
     {'tools': ['Read', 'Edit', 'Write', 'Grep'], 'paths': ['**/.env', '**/.env.*'], 'unless': [r'\.env\.example$']},
     ('A `.env` was read into the transcript and its keys ended up in a PR description.',
      'Read `.env.example`; ask for the value you need instead of opening `.env`.'), ref='PF-0005')
item('common', 'dev-server', 'lesson', 'Dev servers never exit', 'high',
     {'tools': B, 'commands': [r'^mix\s+phx\.server\b', r'^(npm|pnpm|yarn)\s+(run\s+)?dev\b', r'^npx\s+next\s+dev\b'], 'unless': [r'\bnohup\b', r'&\s*$']},
     ('`mix phx.server` (or `npm run dev`) in the foreground blocked the shell until the tool call timed out.',
      'Start it in the background (run_in_background, or `nohup ... &`) and read its log; stop it when done.'))
item('common', 'release-checklist', 'lesson', 'Release checklist', 'high',
     {'keywords': ['release', 'changelog']},
     ('A release went out with the version bumped in one file of three and no CHANGELOG entry.',
      'Bump every version file in one commit, write the CHANGELOG entry, tag after CI is green.'))
item('common', 'pr-review', 'lesson', 'Reviewing a PR: read every comment first', 'high',
     {'keywords': ['review this', 'PR comment']},
     ('A review answered the first page of comments and re-raised points a bot had already made.',
      'Check out the branch (`gh pr checkout N`), list every comment with `gh api --paginate`, run the CI task locally, then review.'))
# spotter: Elixir, Phoenix LiveView, Ash, beads
item('spotter', 'compile-warnings', 'lesson', 'CI compiles with --warnings-as-errors', 'medium',
     {'tools': B, 'commands': [r'^mix\s+compile\b'], 'unless': ['--warnings-as-errors']},
     ('`mix compile` passed locally and CI failed on an unused variable warning.',
      'Run `mix compile --warnings-as-errors`, as CI does.'))
item('spotter', 'ash-migrations', 'pitfall', 'Ash migrations are generated, never written or deleted by hand', 'high',
     {'tools': ['Bash', 'Edit', 'Write'], 'commands': [r'\brm\b.*priv/repo/migrations/'], 'paths': ['priv/repo/migrations/**']},
     ('A hand-written migration (and one deleted after it ran) left `priv/resource_snapshots` out of step: the next `mix ash.codegen` generated a duplicate.',
      'Change the resource and run `mix ash.codegen NAME`; to undo, roll back and regenerate.'), ref='PF-0010')
item('spotter', 'beads-sync', 'lesson', 'bd close is not in git until bd sync', 'medium',
     {'tools': B, 'commands': [r'^bd\s+close\b']},
     ('Issues closed with `bd close` reappeared as open on main: the change stayed in the local beads database.',
      'Run `bd sync` before committing, so `.beads/issues.jsonl` carries it.'))
item('spotter', 'beads-jsonl', 'pitfall', '.beads/issues.jsonl is written by bd', 'high',
     {'tools': EW, 'paths': ['.beads/**']},
     ('A hand edit of `.beads/issues.jsonl` was overwritten by the next `bd sync`.',
      'Use `bd update` / `bd close`; never edit the JSONL.'), ref='PF-0011')
item('spotter', 'process-sleep-tests', 'lesson', 'Process.sleep in tests is a race', 'medium',
     {'tools': EW, 'paths': ['test/**/*_test.exs'], 'content': [r'\bProcess\.sleep\(']},
     ('A test waited with `Process.sleep(50)` for a GenServer message and failed on a loaded CI runner.',
      'Synchronise instead: `assert_receive`, or `:sys.get_state(pid)` to wait for the mailbox.'))
item('spotter', 'liveview-subscribe', 'lesson', 'Subscribe in mount only when connected', 'medium',
     {'tools': EW, 'paths': ['lib/*_web/live/*.ex'], 'content': [r'PubSub\.subscribe\(']},
     ('`Phoenix.PubSub.subscribe` in `mount/3` ran on the dead render too and the process subscribed twice.',
      'Wrap subscriptions in `if connected?(socket) do ... end`.'))
# cli: Go, mise
item('cli', 'go-test-count', 'lesson', 'go test caches results', 'medium',
     {'tools': B, 'commands': [r'^go\s+test\b'], 'unless': ['-count=1']},
     ('`go test` printed a cached pass for a test that reads files outside the package.',
      'Use `go test -count=1`, or `mise run test`, which does.'))
item('cli', 'golangci-mise', 'lesson', 'Run golangci-lint through mise', 'medium',
     {'tools': B, 'commands': [r'^(\w+=\S*\s+)*golangci-lint\b']},
     ('The golangci-lint on PATH was another version than CI\'s and reported different issues.',
      'Run `mise run lint` (or `mise exec -- golangci-lint run`), which pins the version.'))
item('cli', 'hooks-stderr', 'lesson', 'Hook stderr is invisible in Claude Code', 'high',
     {'tools': EW, 'paths': ['cmd/entire/cli/hooks*.go'], 'content': [r'fmt\.Fprint\w*\(os\.Stderr']},
     ('Messages a hook handler printed to stderr never reached the user: Claude Code shows hook stderr nowhere.',
      'Use `outputHookMessage` (a systemMessage on stdout) for anything the user should see; log the rest with slog.'))
item('cli', 'integration-tag', 'lesson', 'Integration tests build only with -tags=integration', 'medium',
     {'tools': EW, 'paths': ['cmd/entire/cli/integration_test/**']},
     ('A change to the integration tests did not compile and `go build ./...` and `go vet ./...` said nothing.',
      'Check with `go build --tags=integration ./...` and run `mise run test:integration`.'))
item('cli', 'detached-build-tags', 'lesson', 'detached.go and detached_other.go are one API under two build tags', 'medium',
     {'tools': EW, 'paths': ['cmd/entire/cli/telemetry/detached.go', 'cmd/entire/cli/telemetry/detached_other.go']},
     ('A function added to the unix file only broke the Windows build.',
      'Change both files together; build with `GOOS=windows go build ./cmd/entire/cli/telemetry/`.'))
item('cli', 'architecture-docs', 'lesson', 'docs/architecture has a table per hook', 'medium',
     {'keywords': ['docs/architecture']},
     ('A docs/architecture update changed the prose and left the hook table and the sequence diagram stale.',
      'Update the table and the diagram with the text; keep one section per hook.'))
# web: the Next.js todo app (and the small fixture repos)
item('web', 'create-next-app', 'lesson', 'create-next-app asks questions without a TTY', 'high',
     {'tools': B, 'commands': [r'\bcreate-next-app\b'], 'unless': [r'--yes\b', r'\s-y\b', r'^yes\s']},
     ('`npx create-next-app` stopped at "Would you like to use Turbopack?" and the call timed out; piping an empty line did not answer it.',
      'Pass `--yes` and every option on the command line.'))
item('web', 'use-pnpm', 'decision', 'Use pnpm', 'high',
     {'tools': B, 'commands': [r'^npm\s+(install|i|ci|add)\b', r'^yarn(\s+(add|install))?(\s|$)']},
     ('The lockfile is pnpm-lock.yaml; npm and yarn write their own lockfiles and hoist differently.',
      'Install with `pnpm install` / `pnpm add`; `npm run` scripts are fine.'), ref='ADR-0001')
# quickstart: the items the README promises, with the calls it shows
item('quickstart', 'pytest-hangs-without-a-tty', 'lesson', 'pytest hangs without a TTY', 'high',
     {'tools': B, 'commands': [r'\bpytest\b'], 'unless': ['--no-header']},
     ('Bare pytest in the agent shell waits for a TTY.', 'Run python -m pytest --no-header -p no:faulthandler.'))
item('quickstart', 'pytest-guard', 'pitfall', 'Run the tests with make test', 'critical',
     {'tools': B, 'commands': [r'\bpytest\b']},
     ('pytest run directly skipped the database fixture setup and dropped the dev schema.',
      'Run `make test`; it starts the test database first.'), deny=True, ref='PF-0020')
item('quickstart', 'mock-patch-target', 'lesson', 'mock.patch must target the importing module', 'medium',
     {'paths': ['**/test_*.py'], 'content': [r'\bmock\.patch\(\s*["\x27]app\.clients\.']},
     ('`mock.patch("app.clients.fetch")` did nothing: app.handlers had imported fetch by name.',
      'Patch where the name is looked up: `mock.patch("app.handlers.fetch")`.'))
item('quickstart', 'migration-columns', 'lesson', 'Add columns nullable, backfill, then constrain', 'medium',
     {'tools': EW, 'paths': ['src/db/migrations/**'], 'keywords': ['column']},
     ('A NOT NULL column added in one migration locked the table for the backfill.',
      'Add it nullable, backfill in batches, then add the constraint in a second migration.'))
item('quickstart', 'utcnow', 'lesson', 'datetime.utcnow() is deprecated and naive', 'medium',
     {'tools': EW, 'content': [r'\bdatetime\.utcnow\(']},
     ('`datetime.utcnow()` returned a naive datetime that compared wrong with aware ones (and warns on 3.12).',
      'Use `datetime.now(timezone.utc)`.'))
item('quickstart', 'missing-await', 'lesson', 'client.fetch_json is a coroutine', 'high',
     {'tools': EW, 'paths': ['**/*.py'], 'content': [r'(?m)^[ \t]*(\w+[ \t]*=[ \t]*)?(self\.)?client\.fetch_json\(']},
     ('`data = client.fetch_json(url)` without `await` gave a coroutine object, and the handler returned it.',
      'Write `data = await client.fetch_json(url)`.'))

# --- the tool calls of the public transcripts in scan/testdata/transcripts
ROOT = 'scan/testdata/transcripts'
out = []
def user_text(c):
    if isinstance(c, str): return c
    if isinstance(c, list):
        ts = [x.get('text','') for x in c if isinstance(x, dict) and x.get('type') in ('text','input_text')]
        return '\n'.join(ts)
    return ''
def claude(path):
    prompt, cwd = '', ''
    for n, l in enumerate(open(path), 1):
        try: d = json.loads(l)
        except: continue
        cwd = d.get('cwd') or cwd
        m = d.get('message') or {}
        if d.get('type') == 'user' and not d.get('isMeta') and not d.get('toolUseResult'):
            t = user_text(m.get('content'))
            if t and not t.startswith('<') and 'tool_result' not in str(m.get('content'))[:200]:
                prompt = t
        if d.get('type') == 'assistant':
            for c in m.get('content') or []:
                if isinstance(c, dict) and c.get('type') == 'tool_use':
                    out.append(dict(source=os.path.relpath(path, ROOT)+':'+str(n), agent='claude', tool=c['name'], input=c.get('input'), cwd=cwd, prompt=prompt))
def codex(path):
    prompt, cwd = '', ''
    for n, l in enumerate(open(path), 1):
        d = json.loads(l); p = d.get('payload', {})
        if d['type'] in ('session_meta','turn_context'): cwd = p.get('cwd', cwd)
        if p.get('type') == 'user_message': prompt = p.get('message','')
        if p.get('type') == 'function_call':
            out.append(dict(source=os.path.relpath(path, ROOT)+':'+str(n), agent='codex', tool=p['name'], input=json.loads(p['arguments']), cwd=cwd, prompt=prompt))
        if p.get('type') == 'custom_tool_call':
            out.append(dict(source=os.path.relpath(path, ROOT)+':'+str(n), agent='codex', tool=p['name'], input={'input': p['input']}, cwd=cwd, prompt=prompt))
def gemini(path):
    d = json.load(open(path)); prompt = ''
    for i, m in enumerate(d['messages']):
        if m.get('type') == 'user': prompt = user_text(m.get('content'))
        for t in m.get('toolCalls', []):
            out.append(dict(source=os.path.relpath(path, ROOT)+'#messages['+str(i)+']', agent='gemini', tool=t['name'], input=t.get('args'), cwd='', prompt=prompt))
for p in sorted(glob.glob(ROOT+'/**/*.jsonl', recursive=True)):
    if '/codex/' in p: codex(p)
    else: claude(p)
for p in sorted(glob.glob(ROOT+'/**/*.json', recursive=True)):
    if '/gemini/' in p: gemini(p)

# --- labels, and the calls the README promises
a = out
ROOTS = sorted({x['cwd'] for x in a if x['cwd']}, key=len, reverse=True)
PROJECT = [('/path/to/Demo/todo-app', 'web'), ('/path/to/Demo', 'web'), ('/home/USER/projects/spotter-worktrees/spotter-a0y', 'spotter'),
           ('/home/USER/projects/spotter-worktrees/spotter-dov', 'spotter'), ('/home/marco/projects/spotter', 'spotter')]
def store_of(x):
    c = x['cwd']
    if 'spotter' in c: return 'spotter'
    if c.startswith('/path/to/Demo') or 'philipp' in c or c == '': return 'web'
    return 'cli'
def project_root(x):
    c = x['cwd']
    if c.startswith('/path/to/Demo/todo-app'): return '/path/to/Demo/todo-app'
    if c.endswith('/types'): return c[:-len('/types')]
    return c
def rewrite(v, root):
    if isinstance(v, str):
        if root and (v == root or v.startswith(root + '/')): return '$ROOT' + v[len(root):]
        if v.startswith('/path/to/Demo/todo-app/'): return '$ROOT' + v[len('/path/to/Demo/todo-app'):]
        return v
    if isinstance(v, dict): return {k: (rewrite(w, root) if k in ('file_path', 'path', 'notebook_path', 'dir_path') else w) for k, w in v.items()}
    return v
def cmd(x): return x['input'].get('command') or x['input'].get('cmd') or ''
def added(x):
    i = x['input']; t = [i[k] for k in ('new_string', 'content', 'new_source') if isinstance(i.get(k), str)]
    t += [e.get('new_string', '') for e in i.get('edits') or []]
    if x['tool'] == 'apply_patch': t.append('\n'.join(l[1:] for l in i['input'].split('\n') if l.startswith('+')))
    return '\n'.join(t)
SHELL = ('Bash', 'exec_command', 'run_shell_command')
EDIT = ('Edit', 'Write', 'MultiEdit', 'write_file', 'replace', 'apply_patch')
def rel(x):
    p = x['input'].get('file_path') or ''
    r = project_root(x)
    return p[len(r) + 1:] if r and p.startswith(r + '/') else p
def code(c):
    # the command with quoted strings, heredoc bodies and comments blanked (for labelling only)
    c = re.sub(r"<<-?\s*'?(\w+)'?\n.*?\n\1(\n|$)", ' ', c, flags=re.S)
    c = re.sub(r'"[^"]*"', '""', c); c = re.sub(r"'[^']*'", "''", c)
    return c
def want(x, st):
    w = []; c = code(cmd(x)) if x['tool'] in SHELL else ''
    bg = x['input'].get('run_in_background')
    pr = x['prompt'].lower()
    def has(word): return re.search(r'\b' + re.escape(word) + r'\b', pr)
    if re.search(r'\bgit\s+push\b.*(--force\b|\s-f\b)', c) and 'force-with-lease' not in c: w.append('force-push')
    if re.search(r'\bgit\s+reset\s+.*--hard', c): w.append('reset-hard')
    if re.search(r'\bgit\s+rebase\s+(\S+\s+)*-i\b', c): w.append('interactive-rebase')
    if re.search(r'\bgit\s+(\S+\s+)*commit\b.*--amend', c): w.append('amend-pushed')
    if re.search(r'(^|&&\s*)git\s+add\s+(-A|--all|\.)(\s|$)', c): w.append('git-add-all')
    if re.search(r'(^|&&\s*)git\s+add\s+(\S+\s+)*-f\b', c): w.append('git-add-force')
    if re.search(r'^gh\s+api\s+\S*/(comments|reviews)\b', c) and '--paginate' not in c: w.append('gh-api-paginate')
    if re.search(r'^gh\s+pr\s+diff\b.*--stat', c): w.append('gh-pr-diff-stat')
    if re.search(r'(^mix\s+phx\.server|^(npm|pnpm)\s+(run\s+)?dev\b|^npx\s+next\s+dev)', c) and not bg: w.append('dev-server')
    if has('release') or has('changelog'): w.append('release-checklist')
    if has('review this') or has('pr comment'): w.append('pr-review')
    if st == 'spotter':
        if re.search(r'(^|&&\s*)mix\s+compile\b', c) and '--warnings-as-errors' not in c: w.append('compile-warnings')
        if re.search(r'\brm\b.*priv/repo/migrations/', c) or x['tool'] in EDIT and rel(x).startswith('priv/repo/migrations/'): w.append('ash-migrations')
        if re.search(r'^bd\s+close\b', c): w.append('beads-sync')
        if x['tool'] in EDIT and re.match(r'test/.*_test\.exs$', rel(x)) and 'Process.sleep(' in added(x): w.append('process-sleep-tests')
        if x['tool'] in EDIT and re.match(r'lib/\w+_web/live/\w+\.ex$', rel(x)) and 'PubSub.subscribe(' in added(x) and 'connected?(socket)' not in added(x):
            w.append('liveview-subscribe')
    if st == 'cli':
        if re.search(r'(^|&&\s*)go\s+test\b', c) and '-count=1' not in c: w.append('go-test-count')
        if re.search(r'(^|&&\s*)(\w+=\S*\s+)*golangci-lint\b', c): w.append('golangci-mise')
        if x['tool'] in EDIT and re.match(r'cmd/entire/cli/hooks.*\.go$', rel(x)) and re.search(r'fmt\.Fprint\w*\(os\.Stderr', added(x)): w.append('hooks-stderr')
        if x['tool'] in EDIT and rel(x).startswith('cmd/entire/cli/integration_test/'): w.append('integration-tag')
        if x['tool'] in EDIT and rel(x) in ('cmd/entire/cli/telemetry/detached.go', 'cmd/entire/cli/telemetry/detached_other.go'): w.append('detached-build-tags')
        if 'docs/architecture' in pr: w.append('architecture-docs')
    if st == 'web':
        if 'create-next-app' in c and '--yes' not in c and not re.match(r'yes\s', c): w.append('create-next-app')
        if re.search(r'^npm\s+(install|i|ci|add)\b', c): w.append('use-pnpm')
    return sorted(w)
calls = []; seen = set(); others = collections.Counter()
for i, x in enumerate(a):
    k = json.dumps([x['tool'], x['input']], sort_keys=True)
    if k in seen: continue
    seen.add(k)
    if x['tool'] not in SHELL + EDIT + ('Read', 'Grep', 'Glob', 'read_file', 'NotebookEdit'):
        others[x['tool']] += 1
        if others[x['tool']] > 2: continue  # a few calls of tools with no target
    st = store_of(x)
    root = project_root(x)
    prompt = x['prompt'][:2000]
    x2 = dict(x, prompt=prompt)
    rec = {'source': 'scan/testdata/transcripts/' + x['source'], 'agent': x['agent'], 'store': st, 'tool': x['tool'],
           'input': rewrite(x['input'], root), 'prompt': prompt, 'want': want(x2, st)}
    c = cmd(x)
    if x['input'].get('run_in_background') and re.search(r'(phx\.server|\bdev\b)', c):
        rec['why'] = 'dev-server not wanted: run_in_background already follows the lesson (the hook sees only the command)'
    if 'connected?(socket)' in added(x) and 'PubSub.subscribe(' in added(x):
        rec['why'] = 'liveview-subscribe not wanted: the edit already wraps the subscriptions in connected?(socket)'
    if 'pr-review' in rec['want']:
        rec['why'] = 'the prompt asks to review the PR or answer its comments'
    if 'architecture-docs' in rec['want']:
        rec['why'] = 'the prompt asks to update docs/architecture'
    if 'create-next-app' in c and not rec['want']:
        rec['why'] = 'yes "" | answers every question with its default'
    calls.append(rec)
# The calls the README and issue 15 promise (quick start, matching section).
def p(store, tool, inp, want, why, prompt='', quoted=False):
    r = {'source': 'README.md', 'agent': 'claude', 'store': store, 'tool': tool, 'input': inp, 'prompt': prompt, 'want': want, 'why': why}
    if quoted: r['quoted'] = True
    calls.append(r)
G = ['pytest-guard', 'pytest-hangs-without-a-tty']
p('quickstart', 'Bash', {'command': 'cd app && pytest -x'}, G, 'quick start: the lesson fires on cd app && pytest -x; the guard denies it')
p('quickstart', 'Bash', {'command': 'pytest -x'}, G, 'a guard on \\bpytest\\b blocks pytest -x')
p('quickstart', 'Bash', {'command': 'python -m pytest tests/'}, G, '')
p('quickstart', 'Bash', {'command': 'echo "$(pytest)"'}, G, 'a command substitution in double quotes runs: denied')
p('quickstart', 'Bash', {'command': 'pytest --no-header -p no:faulthandler'}, ['pytest-guard'], 'the lesson is vetoed by unless; the guard has none')
p('quickstart', 'Bash', {'command': 'git commit -m "fix pytest flakiness in CI"'}, G, 'Matching and scoring: a mention gets the lesson, never a deny', quoted=True)
p('quickstart', 'Bash', {'command': "grep -rn 'pytest' docs/"}, G, 'a mention gets the lesson, never a deny', quoted=True)
p('quickstart', 'Bash', {'command': "cat > NOTES.md <<'EOF'\nRun pytest with make test.\nEOF"}, G, 'a heredoc mention: lesson, no deny', quoted=True)
p('quickstart', 'Bash', {'command': 'make test  # not pytest: it skips the db fixture'}, G, 'a comment mention: lesson, no deny', quoted=True)
p('quickstart', 'Bash', {'command': "bash -c 'pytest -x'"}, G, 'README: a script another shell runs (bash -c) is code: denied')
p('quickstart', 'Bash', {'command': 'pip show pytest-cov'}, [], 'runs no pytest, though \\bpytest\\b matches the package name (- is a word boundary)')
p('quickstart', 'Bash', {'command': 'make test'}, [], '')
p('quickstart', 'Edit', {'file_path': '$ROOT/tests/test_handlers.py', 'old_string': 'def test_fetch():', 'new_string': '@mock.patch("app.clients.fetch")\ndef test_fetch(fetch):'},
  ['mock-patch-target'], 'README: fires on an Edit of tests/test_handlers.py that adds it')
p('quickstart', 'Edit', {'file_path': '$ROOT/tests/test_handlers.py', 'old_string': 'def test_fetch():', 'new_string': '@mock.patch("app.handlers.fetch")\ndef test_fetch(fetch):'},
  [], 'README: not on one that adds the fix')
p('quickstart', 'Edit', {'file_path': '$ROOT/app/handlers.py', 'old_string': 'x', 'new_string': '# see @mock.patch("app.clients.fetch")'}, [], 'README: nor on an edit of another file')
p('quickstart', 'Read', {'file_path': '$ROOT/tests/test_handlers.py'}, [], 'a Read adds no text')
p('quickstart', 'Edit', {'file_path': '$ROOT/src/db/migrations/0001.py', 'old_string': 'x', 'new_string': 'op.add_column("users", sa.Column("age", sa.Integer()))'},
  ['migration-columns'], 'README: lore match --tool Edit --path src/db/migrations/0001.py --prompt "add a column"', prompt='add a column')
p('quickstart', 'Edit', {'file_path': '$ROOT/app/models.py', 'old_string': 'x', 'new_string': 'created = datetime.utcnow()'}, ['utcnow'], 'a code pattern')
p('quickstart', 'Edit', {'file_path': '$ROOT/app/models.py', 'old_string': 'x', 'new_string': 'created = datetime.now(timezone.utc)'}, [], 'the fix')
p('quickstart', 'Write', {'file_path': '$ROOT/app/sync.py', 'content': 'async def sync(client, url):\n    data = client.fetch_json(url)\n    return data\n'}, ['missing-await'], 'a coroutine called without await')
p('quickstart', 'Write', {'file_path': '$ROOT/app/sync.py', 'content': 'async def sync(client, url):\n    data = await client.fetch_json(url)\n    return data\n'}, [], 'the fix')
p('quickstart', 'Bash', {'command': 'git push --force origin main'}, ['force-push'], 'denied')
p('quickstart', 'Bash', {'command': 'git push --force-with-lease origin main'}, [], 'the fix')
p('quickstart', 'Bash', {'command': 'git commit -m "revert the git push --force from friday"'}, ['force-push'], 'a mention: lesson, no deny', quoted=True)
p('quickstart', 'Bash', {'command': 'echo "never git reset --hard on a shared branch" >> NOTES.md'}, ['reset-hard'], 'a mention: lesson, no deny', quoted=True)
p('quickstart', 'Bash', {'command': 'grep -rn "rm -rf /" docs/'}, ['rm-rf-root'], 'a mention: lesson, no deny', quoted=True)
p('quickstart', 'Bash', {'command': 'rm -rf "$HOME"'}, ['rm-rf-root'], 'README: a guard may name a quoted argument')
p('quickstart', 'Bash', {'command': 'rm -rf ./build'}, [], '')
p('quickstart', 'Bash', {'command': "git log --oneline  # then git rebase -i HEAD~3 by hand"}, ['interactive-rebase'], 'a comment mention: lesson, no deny', quoted=True)
prompts = []
for r in calls:
    if r['prompt'] not in prompts: prompts.append(r['prompt'])
    r['prompt'] = prompts.index(r['prompt'])
with open('hooks/testdata/realcalls/prompts.json', 'w') as f:
    json.dump(prompts, f, ensure_ascii=False, indent=0)
with open('hooks/testdata/realcalls/calls.jsonl', 'w') as f:
    for r in calls:
        f.write(json.dumps(r, ensure_ascii=False) + '\n')
c = collections.Counter(w for r in calls for w in r['want'])
print(len(calls), sum(1 for r in calls if r['want']), c.most_common())
print(collections.Counter(r['store'] for r in calls))
