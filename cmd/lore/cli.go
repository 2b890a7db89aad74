package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/alecthomas/kong"
	kongcompletion "github.com/jotaen/kong-completion"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// Globals are the flags and state every command shares.
type Globals struct {
	Dir     string           `short:"C" name:"directory" placeholder:"DIR" help:"Run as if lore was started in DIR." default:"."`
	Version kong.VersionFlag `help:"Print lore's version and exit."`

	Stdin  io.Reader `kong:"-"`
	Stdout io.Writer `kong:"-"`
	Stderr io.Writer `kong:"-"`
	// The one terminal decision, made once in Main: Color when stdout is a
	// terminal and NO_COLOR is unset, Interactive when stdin and stdout
	// are terminals (review asks its questions).
	Color       bool `kong:"-"`
	Interactive bool `kong:"-"`

	store *gitstore.Store
}

// Store opens the repository around -C (once).
func (g *Globals) Store() (*gitstore.Store, error) {
	if g.store == nil {
		s, err := gitstore.Open(g.Dir)
		if err != nil {
			return nil, err
		}
		g.store = s
	}
	return g.store, nil
}

// InitializedStore is Store for commands that need .lore/ to exist.
func (g *Globals) InitializedStore() (*gitstore.Store, error) {
	s, err := g.Store()
	if err != nil {
		return nil, err
	}
	if !s.Initialized() {
		return nil, fmt.Errorf("%s: no .lore/ here: run `lore init` first", s.Root)
	}
	return s, nil
}

// CLI is the whole command line: one struct per command, in cmd_<name>.go.
type CLI struct {
	Globals

	Init        InitCmd        `cmd:"" help:"Create .lore/ in this repository (never overwrites a file)."`
	Add         AddCmd         `cmd:"" help:"Add a lesson, pitfall, decision or learning."`
	List        ListCmd        `cmd:"" help:"List items, filtered by kind, status, tag or priority."`
	Show        ShowCmd        `cmd:"" help:"Show one item by id, ref, slug or path."`
	Lint        LintCmd        `cmd:"" help:"Check the store for format, safety and trigger problems (--fix rewrites what it can)."`
	Build       BuildCmd       `cmd:"" help:"Compile .lore/ into the manifest the agent hook reads (a no-op when nothing changed)."`
	Sync        SyncCmd        `cmd:"" help:"Fetch the organisation stores the config names (sources:) and rebuild; --check for CI."`
	Match       MatchCmd       `cmd:"" help:"Show what the hook injects for one tool call, with every score and reason."`
	Stats       StatsCmd       `cmd:"" help:"Per item: what it reached (fired, held, denied) and whether its mistake stopped recurring."`
	Replay      ReplayCmd      `cmd:"" help:"Run items (a draft, a changed file, the store) against the recorded tool calls: what each would fire on."`
	Ages        AgesCmd        `cmd:"" help:"Show the git-active-day age of every learnings entry."`
	Consolidate ConsolidateCmd `cmd:"" help:"Move aged learnings into lessons, pitfalls, decisions or topic documents."`
	Handoff     HandoffCmd     `cmd:"" help:"Consolidate if due, for an agent handoff step; never fails."`
	Hooks       HooksCmd       `cmd:"" help:"Install, remove or show lore's git hooks (they run lore build after git changes .lore/)."`
	Hook        HookCmd        `cmd:"" help:"Run an agent hook: the agent's JSON on stdin, the agent's JSON on stdout (always exits 0)."`
	Index       IndexCmd       `cmd:"" help:"Print the compact knowledge index (the one SessionStart injects) within a byte budget."`
	Status      StatusCmd      `cmd:"" help:"Counts by kind and status, drafts and observations to review, stale items (--line for a status bar)."`
	Aggregate   AggregateCmd   `cmd:"" help:"Fold 5+ active lessons tagged with the same tool: into one skill the hook injects instead."`
	Signal      SignalCmd      `cmd:"" help:"Emit, list or prune FEEDBACK and REDIRECT signals (they decay with a half-life)."`
	Learn       LearnCmd       `cmd:"" help:"Record a build phase's learnings into learnings.md, once per --key."`
	Scan        Capture        `embed:"" help:"scan, review, promote, archive, reject"`
	Loop        LearningLoop   `embed:"" help:"observe, render, reconcile"`
	Import      ImportCmd      `cmd:"" help:"Bring in lessons-learned stores, agent rule files and ADR folders as drafts for review."`
	Export      ExportCmd      `cmd:"" help:"Write active knowledge into agents' rule files (AGENTS.md, CLAUDE.md, .cursor/rules, ...); --check exits 1 when out of date."`
	Doctor      DoctorCmd      `cmd:"" help:"Check binaries, agent registrations, manifest, git hooks and lint, with the fix for each finding."`
	Completion  CompletionCmd  `cmd:"" help:"Print the shell code for tab completion (bash, zsh, fish)."`
	MCP         MCPCmd         `cmd:"" name:"mcp" help:"Serve the Model Context Protocol on stdin/stdout: lore_check, lore_search, lore_show, lore_record."`
}

// exitSignal carries kong's exit code (after --help) out of the parser.
type exitSignal int

// Main runs lore with args and returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	if len(args) == 1 && args[0] == "--version" {
		// Before kong builds its model of every command: scripts and
		// doctor run this, and it should cost little more than a process.
		fmt.Fprintln(stdout, app.Version())
		return 0
	}
	if app.HookBuild() {
		// A build the hook started writes into the hook log, whose lines
		// carry their time (docs/design.md, Agent hooks).
		stderr = &stamped{w: stderr}
	}
	cli := CLI{Globals: newGlobals(stdin, stdout, stderr)}
	if paths, ok := quietScanArgs(args); ok {
		// The agents' Stop hook (internal/inject/hooks/spawn.go) skips kong too: a quiet
		// scan prints nothing and exits 0, and building the model of every
		// command was half of what a scan with nothing new cost.
		return exitCode((&ScanCmd{Paths: paths, Quiet: true}).Run(&cli.Globals), "scan", stderr)
	}
	if cmd, ok := agesArgs(args); ok {
		// `lore ages [FILE]` is what a warm call should answer in a few ms
		// (docs/design.md, Performance and quality bars): kong's model of
		// even one command cost 0.1-2 ms of it.
		return exitCode(cmd.Run(&cli.Globals), "ages", stderr)
	}
	defer func() {
		if r := recover(); r != nil {
			sig, ok := r.(exitSignal)
			if !ok {
				panic(r)
			}
			code = int(sig)
		}
	}()
	parser, err := commandParser(&cli, args, stdout, stderr)
	if err != nil {
		return exitCode(err, "", stderr)
	}
	if os.Getenv("COMP_LINE") != "" {
		// Answers the shell's completion request and exits; it walks the
		// whole model, so only when the shell asks.
		kongcompletion.Register(parser)
	}
	ctx, err := parser.Parse(args)
	if err != nil {
		var perr *kong.ParseError
		if errors.As(err, &perr) {
			// Named by the command the words reached, as a run's errors are.
			cmd := ""
			if perr.Context != nil && perr.Context.Selected() != nil {
				cmd = perr.Context.Selected().Path()
			}
			if cmd == "" {
				fmt.Fprintf(stderr, "lore: %v (see lore --help)\n", err)
			} else {
				fmt.Fprintf(stderr, "lore: %s: %v (see lore %s --help)\n", cmd, err, cmd)
			}
			return exitError
		}
		return exitCode(err, "", stderr)
	}
	// Every error names the command that failed by its words ("signal
	// emit"): lore has no aliases and no branching arguments in a path.
	return exitCode(ctx.Run(&cli.Globals), ctx.Selected().Path(), stderr)
}

// newGlobals makes the one terminal decision: Color when stdout is a
// terminal and NO_COLOR is unset, Interactive when stdin is one too. Dir
// is -C's default already, for the commands answered before kong.
func newGlobals(stdin io.Reader, stdout, stderr io.Writer) Globals {
	term := isTerminal(stdout)
	_, noColor := os.LookupEnv("NO_COLOR")
	return Globals{Dir: ".", Stdin: stdin, Stdout: stdout, Stderr: stderr, Color: term && !noColor,
		Interactive: term && isTerminal(stdin)}
}

// agesArgs recognises `ages` with at most one FILE, --json and --today
// DATE (or --today=DATE), each at most once; anything else (-C, help, a
// second file, shell completion) goes through kong.
func agesArgs(args []string) (*AgesCmd, bool) {
	if len(args) == 0 || args[0] != "ages" || os.Getenv("COMP_LINE") != "" {
		return nil, false
	}
	cmd, today := &AgesCmd{}, false
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--json" && !cmd.JSON:
			cmd.JSON = true
		case a == "--today" && !today && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-"):
			cmd.Today, today = args[i+1], true
			i++
		case strings.HasPrefix(a, "--today=") && !today:
			cmd.Today, today = strings.TrimPrefix(a, "--today="), true
		case cmd.File == "" && a != "" && !strings.HasPrefix(a, "-"):
			cmd.File = a
		default:
			return nil, false
		}
	}
	return cmd, true
}

// quietScanArgs recognises exactly `scan --quiet [path...]` (no other flag,
// no path that looks like one, no shell completion request) and returns
// the paths; anything else goes through kong.
func quietScanArgs(args []string) ([]string, bool) {
	if len(args) < 2 || args[0] != "scan" || args[1] != "--quiet" || os.Getenv("COMP_LINE") != "" {
		return nil, false
	}
	paths := args[2:]
	for _, p := range paths {
		if strings.HasPrefix(p, "-") {
			return nil, false
		}
	}
	return paths, true
}

// commandParser is a parser whose model holds only the command args[0]
// names, on the same globals: kong.New reflects over every command's flags
// and tags, which costs more than a warm `lore ages` needs for itself
// (issue 14). Help and completion, and anything that is not a command's
// name, get the whole model (newParser), so what they print is unchanged.
func commandParser(cli *CLI, args []string, stdout, stderr io.Writer) (*kong.Kong, error) {
	if len(args) == 0 || os.Getenv("COMP_LINE") != "" || slices.ContainsFunc(args, isHelpFlag) {
		return newParser(cli, stdout, stderr)
	}
	cmd, help, ok := commandField(reflect.ValueOf(cli).Elem(), args[0])
	if !ok {
		return newParser(cli, stdout, stderr)
	}
	return kong.New(&cli.Globals, append(parserOptions(cli, stdout, stderr),
		kong.DynamicCommand(args[0], help, "", cmd.Addr().Interface()))...)
}

func isHelpFlag(arg string) bool { return arg == "-h" || arg == "--help" }

// commandField finds the field of v (a CLI, or a struct it embeds) that is
// the command called name, and its help: kong names a command by its
// field's name in lower case unless a name tag says otherwise.
func commandField(v reflect.Value, name string) (reflect.Value, string, bool) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if _, ok := f.Tag.Lookup("embed"); ok {
			if cmd, help, ok := commandField(v.Field(i), name); ok {
				return cmd, help, true
			}
			continue
		}
		if _, ok := f.Tag.Lookup("cmd"); !ok {
			continue
		}
		fieldName := f.Tag.Get("name")
		if fieldName == "" {
			fieldName = strings.ToLower(f.Name)
		}
		if fieldName == name {
			return v.Field(i), f.Tag.Get("help"), true
		}
	}
	return reflect.Value{}, "", false
}

// newParser is lore's kong parser over cli (the README test parses with it
// too).
func newParser(cli *CLI, stdout, stderr io.Writer) (*kong.Kong, error) {
	return kong.New(cli, parserOptions(cli, stdout, stderr)...)
}

// parserOptions are the options of both parsers.
func parserOptions(cli *CLI, stdout, stderr io.Writer) []kong.Option {
	return []kong.Option{
		kong.Name("lore"),
		kong.Description("A git-native memory for coding agents: lessons, pitfalls and decisions as Markdown in the repository."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(c int) { panic(exitSignal(c)) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Bind(&cli.Globals),
		// A command that needs .lore/ takes the store as a Run argument.
		kong.BindToProvider(cli.InitializedStore),
		kong.Vars{"version": app.Version()},
	}
}

// isTerminal reports whether stdin or stdout is a terminal.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// stamped starts each line written to w with the time, as the hook log's
// own lines start.
type stamped struct {
	w    io.Writer
	part bool // the last write ended inside a line
}

func (s *stamped) Write(p []byte) (int, error) {
	var b []byte
	for line := range bytes.Lines(p) {
		if !s.part {
			b = append(b, time.Now().UTC().Format(time.RFC3339)+" "...)
		}
		b = append(b, line...)
		s.part = line[len(line)-1] != '\n'
	}
	if _, err := s.w.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}
