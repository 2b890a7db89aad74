# Writes the labelled store (.lore/) from ITEMS. Run: python3 gen.py
import os
B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
def ulid(i):
    s = ""
    n = i + 1
    for _ in range(6):
        s = B32[n % 32] + s; n //= 32
    return "01JQ" + "0" * 16 + s
FOLDER = {"lesson": "lessons", "pitfall": "pitfalls", "decision": "decisions"}
# slug, kind, priority, status, form, triggers(dict), sections(dict), extra
ITEMS = [
 ("pytest-tty", "lesson", "high", {"tools": ["Bash"], "commands": [r"^(\S+=\S*\s+)*(python3? -m )?pytest\b"], "unless": ["--no-header", r"TERM=dumb"]},
  {"Mistake": "Bare `pytest` in an agent shell detects no TTY and hangs.", "Fix": "Run `python -m pytest --no-header -rN -p no:faulthandler` or prefix `TERM=dumb`."}),
 ("jest-watch", "lesson", "medium", {"tools": ["Bash"], "commands": [r"^(npx\s+)?jest\b", r"^npm (run )?test\b"], "unless": ["--watchAll=false", r"--ci\b"]},
  {"Mistake": "jest starts in watch mode and never exits.", "Fix": "Pass `--ci --watchAll=false` (or `--forceExit`)."}),
 ("mocha-exit", "lesson", "medium", {"tools": ["Bash"], "commands": [r"^(npx\s+)?mocha\b"], "unless": [r"--exit\b"]},
  {"Mistake": "mocha keeps running after the tests when handles stay open.", "Fix": "Pass `--exit`."}),
 ("pip-venv", "lesson", "high", {"tools": ["Bash"], "commands": [r"^pip3?\s+install\b"], "unless": [r"\.venv/bin/pip", "VIRTUAL_ENV="]},
  {"Mistake": "`pip install -e .` went into the system interpreter, not the project venv.", "Fix": "Use `.venv/bin/pip install -e .` or `uv pip install`."}),
 ("use-pnpm", "decision", "high", {"tools": ["Bash"], "commands": [r"^npm\s+(install|i|ci|add)\b", r"^yarn(\s+(add|install))?\s*"]},
  {"Context": "The lockfile is pnpm-lock.yaml; npm and yarn write their own lockfiles and hoist differently.", "Decision": "Install with `pnpm install` / `pnpm add`."}),
 ("npm-link-peers", "lesson", "medium", {"tools": ["Bash"], "commands": [r"^npm\s+link\b"]},
  {"Mistake": "`npm link` does not resolve peer dependencies: two copies of React.", "Fix": "Use `pnpm link --global` or a workspace."}),
 ("mock-patch-target", "lesson", "medium", {"tools": ["Edit", "Write"], "paths": ["**/test_*.py", "**/*_test.py"], "keywords": ["mock", "patch"]},
  {"Mistake": "`mock.patch('pkg.source.fn')` did nothing: the module under test imported the name.", "Fix": "Patch where it is looked up: `mock.patch('pkg.user.fn')`."}),
 ("precommit-isolated", "pitfall", "medium", {"tools": ["Edit", "Write"], "paths": [".pre-commit-config.yaml"]},
  {"Issue": "pre-commit hooks run in isolated venvs.", "Avoid": "Declare hook deps in `additional_dependencies`."}),
 ("gha-services", "pitfall", "high", {"tools": ["Edit", "Write"], "paths": [".github/workflows/*.yml", ".github/workflows/*.yaml"]},
  {"Issue": "`services:` containers are not on localhost when the job runs in a container.", "Avoid": "Use the service name as host inside container jobs; localhost plus ports otherwise."}),
 ("typer-positional", "lesson", "low", {"tools": ["Edit"], "paths": ["**/cli.py"]},
  {"Mistake": "Typer callbacks swallowed positional args.", "Fix": "Use `invoke_without_command` and explicit arguments."}),
 ("argparse-nargs", "lesson", "medium", {"tools": ["Edit"], "keywords": ["argparse", "subcommand"]},
  {"Mistake": "`nargs='*'` swallowed the subcommand name.", "Fix": "Use subparsers; put greedy positionals last."}),
 ("docker-context", "lesson", "medium", {"tools": ["Bash"], "commands": [r"^docker\s+(buildx\s+)?build\b"]},
  {"Mistake": "A gitignored file the build needed was not in the context (.dockerignore).", "Fix": "Check `.dockerignore`; generate files inside the build."}),
 ("git-stash-untracked", "pitfall", "high", {"tools": ["Bash"], "commands": [r"^git\s+stash(\s+(push|save))?(\s|$)"], "unless": [r"(\s-u\b|--include-untracked|\s-a\b|--all)", r"stash\s+(pop|list|show|drop|apply)"]},
  {"Issue": "`git stash` leaves untracked files behind, so they seem lost or leak into the next branch.", "Avoid": "`git stash -u`."}),
 ("git-rebase-base", "lesson", "medium", {"tools": ["Bash"], "commands": [r"^git\s+rebase\b"], "unless": [r"--(abort|continue|skip)"]},
  {"Mistake": "Rebased onto a stale local main and lost commits.", "Fix": "`git fetch` first and rebase onto `origin/main`; check `git log --oneline origin/main..`."}),
 ("git-force-push", "pitfall", "critical", {"tools": ["Bash"], "commands": [r"git\s+push\b.*(--force\b|\s-f\b)"], "unless": ["--force-with-lease"]},
  {"Issue": "A force push drops teammates' commits.", "Avoid": "Use `git push --force-with-lease`."}, {"enforce": "deny"}),
 ("rm-rf-root", "pitfall", "critical", {"tools": ["Bash"], "commands": [r"\brm\s+-\w*[rR]\w*\s+(/|~/?|\$HOME/?|\*|\.\./?)(\s|$)"]},
  {"Issue": "`rm -rf` on /, ~, $HOME, .. or * destroys far more than intended.", "Avoid": "Name the exact folder: `rm -rf ./build`."}, {"enforce": "deny"}),
 ("alembic-autogen", "lesson", "high", {"tools": ["Bash"], "commands": [r"\balembic\s+revision\b.*--autogenerate"]},
  {"Mistake": "Alembic autogenerate missed index changes.", "Fix": "Review the migration; add `op.create_index` by hand."}),
 ("django-migrations", "lesson", "medium", {"tools": ["Bash", "Edit", "Write"], "commands": [r"manage\.py\s+makemigrations\b"], "paths": ["**/migrations/*.py"]},
  {"Mistake": "Circular model imports created a migration dependency cycle.", "Fix": "Use string model references (`'app.Model'`); squash and check `showmigrations`."}),
 ("env-order", "lesson", "medium", {"tools": ["Edit", "Write", "Read"], "paths": ["**/.env", "**/.env.*"]},
  {"Mistake": ".env.local was loaded before .env and lost.", "Fix": "Load the most specific file last; document the order."}),
 ("node-env-prod", "lesson", "high", {"tools": ["Bash"], "commands": [r"\bexport\s+NODE_ENV=production\b"]},
  {"Mistake": "`NODE_ENV=production` stayed set in the dev shell: devDependencies were skipped.", "Fix": "Set it per command: `NODE_ENV=production npm run build`."}),
 ("version-bump", "lesson", "critical", {"tools": ["Edit", "Write"], "paths": ["**/plugin.json", "**/marketplace.json", "VERSION", "pyproject.toml", "package.json"], "keywords": ["version", "release"]},
  {"Checklist": "- VERSION\n- pyproject.toml\n- package.json\n- .claude-plugin/plugin.json\n- .claude-plugin/marketplace.json\n- CHANGELOG.md", "Fix": "Update every version file in one commit."}, {"form": "checklist"}),
 ("release-notes", "lesson", "high", {"keywords": ["release", "changelog", "ship it"]},
  {"Mistake": "Released without a CHANGELOG entry.", "Fix": "Write the CHANGELOG entry before tagging."}),
 ("go-test-cache", "lesson", "medium", {"tools": ["Bash"], "commands": [r"^go\s+test\b"], "unless": [r"-count=1"]},
  {"Mistake": "`go test` printed a cached pass for a test that depends on files outside the package.", "Fix": "Use `go test -count=1`."}),
 ("terraform-apply", "pitfall", "critical", {"tools": ["Bash"], "commands": [r"^terraform\s+apply\b"], "unless": [r"\.tfplan\b"]},
  {"Issue": "`terraform apply` without a saved plan applies whatever changed since review.", "Avoid": "`terraform plan -out=plan.tfplan` then `terraform apply plan.tfplan`."}, {"enforce": "deny"}),
 ("kubectl-delete-ns", "pitfall", "critical", {"tools": ["Bash"], "commands": [r"^kubectl\s+delete\s+(ns|namespace)\b"]},
  {"Issue": "Deleting a namespace deletes everything in it.", "Avoid": "Delete the resources you mean by name."}),
 ("compose-down-v", "pitfall", "high", {"tools": ["Bash"], "commands": [r"^docker[\s-]compose\s+down\b.*(\s-v\b|--volumes)"]},
  {"Issue": "`docker compose down -v` deletes the database volume.", "Avoid": "`docker compose down` keeps volumes."}, {"form": "warning"}),
 ("sudo-pip", "lesson", "high", {"tools": ["Bash"], "commands": [r"\bsudo\s+(-H\s+)?pip3?\b"]},
  {"Mistake": "`sudo pip` broke the system Python.", "Fix": "Use a venv or `pipx`."}),
 ("curl-pipe-sh", "pitfall", "high", {"tools": ["Bash"], "commands": [r"\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(ba|z)?sh\b"]},
  {"Issue": "Piping a download into a shell runs unreviewed code.", "Avoid": "Download, read, then run."}),
 ("no-verify", "lesson", "high", {"tools": ["Bash"], "commands": [r"^git\s+commit\b.*--no-verify", r"^git\s+commit\b.*\s-n\b"]},
  {"Mistake": "`--no-verify` skipped the hooks that catch lint failures in CI.", "Fix": "Fix the hook failure instead."}),
 ("git-reset-hard", "pitfall", "high", {"tools": ["Bash"], "commands": [r"^git\s+reset\b.*--hard"]},
  {"Issue": "`git reset --hard` discards uncommitted work.", "Avoid": "`git stash -u` first, or `git reset --keep`."}),
 ("git-clean", "pitfall", "high", {"tools": ["Bash"], "commands": [r"^git\s+clean\s+-\w*f"]},
  {"Issue": "`git clean -f` deletes untracked files for good (and -x the ignored .env).", "Avoid": "Run `git clean -n` first."}),
 ("chmod-777", "lesson", "medium", {"tools": ["Bash"], "commands": [r"\bchmod\s+(-R\s+)?0?777\b"]},
  {"Mistake": "chmod 777 made secrets world-readable.", "Fix": "Use the narrowest mode: 755 for dirs, 644 for files."}),
 ("db-migrate-checklist", "lesson", "high", {"tools": ["Bash"], "commands": [r"\bmanage\.py\s+migrate\b", r"\balembic\s+upgrade\b", r"\brails\s+db:migrate\b"]},
  {"Checklist": "- Back up the database\n- Run it on staging first\n- Check the migration is reversible"}, {"form": "checklist"}),
 ("lockfile-edit", "pitfall", "high", {"tools": ["Edit", "Write"], "paths": ["**/package-lock.json", "**/pnpm-lock.yaml", "**/yarn.lock", "**/poetry.lock", "**/Cargo.lock", "**/go.sum"]},
  {"Issue": "Hand-edited lockfiles drift from the manifest.", "Avoid": "Change the manifest and let the package manager rewrite the lockfile."}, {"form": "warning"}),
 ("generated-code", "lesson", "medium", {"tools": ["Edit", "Write"], "paths": ["**/*.pb.go", "**/*_generated.go", "**/zz_generated*.go"]},
  {"Mistake": "Edited generated code; the next generate run undid it.", "Fix": "Edit the source (.proto, template) and regenerate."}),
 ("deploy-requirement", "decision", "high", {"tools": ["Bash"], "commands": [r"^(\./)?scripts/deploy\.sh\b", r"^make\s+deploy\b"], "keywords": ["production"]},
  {"Decision": "Deploy only from a tagged commit.", "Verify": "`git describe --exact-match` succeeds."}, {"form": "requirement"}),
 ("black-vs-ruff", "decision", "medium", {"tools": ["Bash"], "commands": [r"^(python3? -m )?black\b"]},
  {"Context": "Formatting is ruff's job here.", "Decision": "Run `ruff format`, not black."}),
 ("env-commit", "pitfall", "critical", {"tools": ["Bash"], "commands": [r"^git\s+add\b.*(^|\s)(\S*/)?\.env(\.\w+)?(\s|$)"], "unless": [r"\.env\.(example|sample|template)\b"]},
  {"Issue": "Committing .env leaks secrets.", "Avoid": "Keep .env out of git; commit .env.example."}, {"enforce": "deny"}),
 ("npm-publish", "lesson", "high", {"tools": ["Bash"], "commands": [r"^(npm|pnpm)\s+publish\b"]},
  {"Mistake": "Published without building: the package had no dist/.", "Fix": "`pnpm build && pnpm publish --dry-run` first."}),
 ("minified-read", "lesson", "medium", {"tools": ["Read"], "paths": ["**/*.min.js", "dist/**"]},
  {"Mistake": "Read a minified bundle: thousands of tokens of noise.", "Fix": "Read the source under src/ instead."}),
 ("stale-draft", "lesson", "high", {"tools": ["Bash"], "commands": [r"^make\b"]},
  {"Mistake": "A draft nobody reviewed.", "Fix": "n/a"}, {"status": "draft"}),
 ("old-yarn", "lesson", "high", {"tools": ["Bash"], "commands": [r"^yarn\b"]},
  {"Mistake": "Deprecated advice.", "Fix": "n/a"}, {"status": "deprecated"}),
 ("sandbox-mkdir", "lesson", "medium", {"tools": ["Write"], "topics": ["sandbox"], "paths": ["tmp/**"]},
  {"Mistake": "The file tool could not see a folder the shell created in the sandbox.", "Fix": "Create folders with the file tool or use absolute paths."}),
 ("unhandled-rejection", "lesson", "medium", {"tools": ["Edit", "Write"], "paths": ["**/*.mjs", "**/*.ts"], "keywords": ["promise", "async"]},
  {"Mistake": "An unhandled promise rejection exited Node silently.", "Fix": "Await every promise; add a `process.on('unhandledRejection')` handler."}),
]
def yl(v): return "[" + ", ".join("'" + x.replace("'", "''") + "'" for x in v) + "]"
for i, it in enumerate(ITEMS):
    slug, kind, prio, trig, secs = it[:5]
    extra = it[5] if len(it) > 5 else {}
    status = extra.get("status", "accepted" if kind == "decision" else "active")
    fm = ["---", "id: " + ulid(i), "kind: " + kind, "title: " + secs.get("_title", slug.replace("-", " ")), "status: " + status, "priority: " + prio]
    if kind in ("pitfall", "decision"):
        fm.append("ref: %s-%04d" % ("PF" if kind == "pitfall" else "ADR", i + 1))
    for k in ("form", "enforce"):
        if k in extra: fm.append("%s: %s" % (k, extra[k]))
    fm.append("triggers:")
    for k in ("tools", "commands", "unless", "paths", "keywords", "topics"):
        if k in trig: fm.append("  %s: %s" % (k, yl(trig[k])))
    fm.append("---")
    body = "".join("\n## %s\n%s\n" % (k, v) for k, v in secs.items() if not k.startswith("_"))
    name = slug + ".md"
    if kind == "pitfall": name = "PF-%04d-%s.md" % (i + 1, slug)
    if kind == "decision": name = "ADR-%04d-%s.md" % (i + 1, slug)
    d = os.path.join(".lore", FOLDER[kind]); os.makedirs(d, exist_ok=True)
    open(os.path.join(d, name), "w").write("\n".join(fm) + "\n" + body)
