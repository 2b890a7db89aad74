// Package mcpserver is lore mcp: the Model Context Protocol over stdio,
// with the official Go SDK (docs/design.md, MCP server). It is a front
// end like cmd/lore: each tool makes one call into internal/app.
package mcpserver

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// Serve answers MCP requests from in on out until in ends (nil) or ctx is
// done. Lines that are not JSON-RPC messages get a JSON-RPC error and the
// session goes on.
func Serve(ctx context.Context, s *gitstore.Store, in io.Reader, out io.Writer) error {
	w := newLockedWriter(out)
	pr, pw := io.Pipe()
	go guard(in, pw, w)
	err := New(s).Run(ctx, &mcp.IOTransport{Reader: pr, Writer: w})
	_ = pr.Close() // ends the guard's writes; a pipe reader's Close never fails
	return err
}

// New is lore's MCP server over the store: the tools lore_check,
// lore_search, lore_show and lore_record.
func New(s *gitstore.Store) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "lore", Title: "lore: the repository's memory",
		Version: strings.TrimPrefix(app.Version(), "lore ")}, &mcp.ServerOptions{Instructions: instructions})
	t := tools{s}
	mcp.AddTool(srv, &mcp.Tool{Name: "lore_check", Description: checkDoc}, t.check)
	mcp.AddTool(srv, &mcp.Tool{Name: "lore_search", Description: searchDoc}, t.search)
	mcp.AddTool(srv, &mcp.Tool{Name: "lore_show", Description: showDoc}, t.show)
	mcp.AddTool(srv, &mcp.Tool{Name: "lore_record", Description: recordDoc}, t.record)
	return srv
}

const instructions = "lore is this repository's memory of mistakes and their fixes. Call lore_check " +
	"before running a shell command or editing a file, and follow what it returns. When you learn " +
	"something the next session should know (a mistake and its fix), call lore_record: it writes a " +
	"draft that a person reviews."

const (
	checkDoc = "What lore would tell an agent before this tool call: the lessons, pitfalls and " +
		"decisions that match it, most relevant first, each with its text and why it matched. " +
		"Call it before a shell command (tool Bash, command) or a file edit (tool Edit or Write, " +
		"path relative to the repository, content being added)."
	searchDoc = "Search the repository's lessons, pitfalls and decisions by words; most relevant first."
	showDoc   = "One item in full, by its id, ref (such as PF-3) or file name."
	recordDoc = "Record a lesson learned in this session (the mistake and its fix) as a draft for " +
		"review. Nothing becomes active until a person approves it; a lesson already known is not " +
		"written twice."
)

// tools holds the handlers, over one store.
type tools struct{ s *gitstore.Store }

// CheckIn is one tool call as the agent is about to make it.
type CheckIn struct {
	Tool    string `json:"tool" jsonschema:"the tool about to be called: Bash, Edit, Write, Read, ..."`
	Command string `json:"command,omitempty" jsonschema:"the shell command, for Bash"`
	Path    string `json:"path,omitempty" jsonschema:"the file the call reads or writes, relative to the repository"`
	Content string `json:"content,omitempty" jsonschema:"the text an edit adds"`
}

// Delivered is one item the hook would deliver.
type Delivered struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	File    string   `json:"file"`
	Score   float64  `json:"score"`
	Reasons []string `json:"reasons"`
	Text    string   `json:"text"`
	Deny    bool     `json:"deny,omitempty" jsonschema:"the item forbids this call"`
}

// CheckOut is what the hook would deliver for the call.
type CheckOut struct {
	Items      []Delivered `json:"items"`
	Considered int         `json:"considered" jsonschema:"items scored for this call"`
}

func (t tools) check(_ context.Context, _ *mcp.CallToolRequest, in CheckIn) (*mcp.CallToolResult, CheckOut, error) {
	if strings.TrimSpace(in.Tool) == "" {
		return nil, CheckOut{}, fmt.Errorf("tool is empty: name the tool about to be called (Bash, Edit, ...)")
	}
	d, err := app.Check(t.s, in.Tool, in.Command, in.Path, in.Content)
	if err != nil {
		return nil, CheckOut{}, err
	}
	out := CheckOut{Items: []Delivered{}, Considered: d.Considered}
	for _, r := range d.Injected {
		reasons := r.Reasons
		if reasons == nil {
			reasons = []string{}
		}
		out.Items = append(out.Items, Delivered{ID: r.ID, Title: r.Title, File: r.File, Score: r.Score,
			Reasons: reasons, Text: r.Text, Deny: r.Deny})
	}
	return nil, out, nil
}

// SearchIn is a search.
type SearchIn struct {
	Query string `json:"query" jsonschema:"words to look for"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many items (default 10)"`
}

// Hit is one item a search found.
type Hit struct {
	ID       string   `json:"id"`
	Kind     string   `json:"kind"`
	Title    string   `json:"title"`
	Status   string   `json:"status"`
	Priority int      `json:"priority"`
	Tags     []string `json:"tags"`
	Path     string   `json:"path"`
	Score    int      `json:"score" jsonschema:"how well the item matches: 3 a word in the title, 2 in a tag or trigger, 1 in the body"`
}

// SearchOut is the items found, most relevant first.
type SearchOut struct {
	Items []Hit `json:"items"`
}

func (t tools) search(_ context.Context, _ *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, SearchOut, error) {
	found, err := app.Search(t.s, in.Query, in.Limit)
	if err != nil {
		return nil, SearchOut{}, err
	}
	out := SearchOut{Items: []Hit{}}
	for _, f := range found {
		out.Items = append(out.Items, Hit{ID: f.ID, Kind: f.Kind, Title: f.Title, Status: f.Status,
			Priority: f.Priority, Tags: f.Tags, Path: f.Path, Score: f.Score})
	}
	return nil, out, nil
}

// ShowIn names an item.
type ShowIn struct {
	ID string `json:"id" jsonschema:"an item's id, ref (PF-3) or file name"`
}

// ShowOut is one item in full.
type ShowOut struct {
	ID       string   `json:"id"`
	Kind     string   `json:"kind"`
	Title    string   `json:"title"`
	Status   string   `json:"status"`
	Priority int      `json:"priority"`
	Ref      string   `json:"ref,omitempty"`
	Tags     []string `json:"tags"`
	Path     string   `json:"path"`
	Body     string   `json:"body" jsonschema:"the item's Markdown body"`
}

func (t tools) show(_ context.Context, _ *mcp.CallToolRequest, in ShowIn) (*mcp.CallToolResult, ShowOut, error) {
	r, err := app.Show(t.s, in.ID)
	if err != nil {
		return nil, ShowOut{}, err
	}
	it := r.Item
	tags := it.Tags
	if tags == nil {
		tags = []string{}
	}
	return nil, ShowOut{ID: it.ID, Kind: it.Kind, Title: it.Title, Status: it.Status, Priority: int(it.Priority),
		Ref: it.Ref, Tags: tags, Path: it.Path, Body: strings.TrimSpace(string(it.Body()))}, nil
}

// RecordIn is a lesson learned.
type RecordIn struct {
	Title    string   `json:"title" jsonschema:"one line: what to do or avoid"`
	Mistake  string   `json:"mistake" jsonschema:"what went wrong, and how it showed"`
	Fix      string   `json:"fix" jsonschema:"what works instead"`
	Tool     string   `json:"tool,omitempty" jsonschema:"the tool the lesson is about: Bash, Edit, ..."`
	Trigger  string   `json:"trigger,omitempty" jsonschema:"the command or file pattern that should bring the lesson back"`
	Tags     []string `json:"tags,omitempty" jsonschema:"tags such as lang:go"`
	Priority int      `json:"priority,omitempty" jsonschema:"1 (low) to 10 (critical)"`
}

// RecordOut is the draft written, or that the lesson was known.
type RecordOut struct {
	Path   string `json:"path,omitempty" jsonschema:"the draft, relative to the repository"`
	ID     string `json:"id,omitempty"`
	Known  bool   `json:"known" jsonschema:"the store already holds or rejected this lesson: nothing was written"`
	Status string `json:"status" jsonschema:"draft: a person reviews it with lore review"`
}

func (t tools) record(_ context.Context, _ *mcp.CallToolRequest, in RecordIn) (*mcp.CallToolResult, RecordOut, error) {
	if in.Priority < 0 || in.Priority > 10 {
		return nil, RecordOut{}, fmt.Errorf("priority %d: give 1 (low) to 10 (critical)", in.Priority)
	}
	l := app.Lesson{Title: in.Title, Mistake: in.Mistake, Fix: in.Fix, Tool: in.Tool, Trigger: in.Trigger, Tags: in.Tags}
	if in.Priority > 0 {
		l.Priority = fmt.Sprint(in.Priority)
	}
	r, err := app.Record(t.s, l)
	if err != nil {
		return nil, RecordOut{}, err
	}
	return nil, RecordOut{Path: r.Path, ID: r.ID, Known: r.Known, Status: "draft"}, nil
}
