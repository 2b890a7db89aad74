// Package scan mines coding-agent transcripts (Claude Code, Codex, Gemini
// CLI) for lesson candidates: Tier 1 self-reported #lesson and
// [PROCESS_KNOWLEDGE] blocks, Tier 2 heuristics (error then fix, retry
// loops, hangs, user corrections, self-diagnosis, explicit statements).
// Its calls pass (ReadCalls) records every tool call and how it ended,
// for lore stats and lore replay. It reads incrementally from per-file
// bookmarks, never fails on a bad line, and redacts secrets from
// everything it returns. It imports only the standard library, redact,
// protocol and match.
package scan

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// Agents whose transcripts scan reads.
const (
	AgentClaude = "claude"
	AgentCodex  = "codex"
	AgentGemini = "gemini"
)

// Bookmark is how far one file was read.
type Bookmark struct {
	Agent   string `json:"agent"`
	Offset  int64  `json:"offset"` // bytes (JSONL) or messages (Gemini JSON) already read
	Line    int    `json:"line"`   // lines read, so line numbers stay absolute
	Size    int64  `json:"size"`
	MtimeNs int64  `json:"mtimeNs"`
	Tail    string `json:"tail"` // hash of the bytes just before Offset: detects a rewritten file
	Session string `json:"session,omitempty"`
	Started string `json:"started,omitempty"` // the session's first timestamp (the calls pass)
}

// Bookmarks are the scan state kept in the cache.
type Bookmarks struct {
	Version int                 `json:"version"`
	Files   map[string]Bookmark `json:"files"`
}

const bookmarksVersion = 1

// ParseBookmarks reads the cache file; anything unreadable is an empty
// state (the files are then read again, which only costs time).
func ParseBookmarks(data []byte) *Bookmarks {
	b := &Bookmarks{}
	if json.Unmarshal(data, b) != nil || b.Version != bookmarksVersion || b.Files == nil {
		return &Bookmarks{Version: bookmarksVersion, Files: map[string]Bookmark{}}
	}
	return b
}

// Marshal renders the state for the cache.
func (b *Bookmarks) Marshal() []byte {
	data, _ := json.MarshalIndent(b, "", " ")
	return append(data, '\n')
}

// Options tune one scan.
type Options struct {
	Since   time.Time // files last modified before are skipped
	Workers int       // files read in parallel; 0: one per CPU
	// Root and Home are the repository's work tree and the user's home
	// folder: in what candidates say, paths under Root become relative and
	// Home becomes ~, so drafts (committed, and hashed for the team's
	// rejections) carry no one machine's paths or user name.
	Root, Home string
}

// Result is what one scan found.
type Result struct {
	Candidates []Candidate
	Stats      Stats
	Bookmarks  *Bookmarks // the state after this scan (write it unless dry-run)
	Moved      bool       // a bookmark moved: Bookmarks differs from the state read
}

// Files expands paths (files or folders) into the transcript files under
// them, sorted: *.jsonl and Gemini chat files (*.json under a chats/
// folder or named session-*.json). Compaction agents' transcripts
// (agent-acompact-*) are summaries, not evidence, and are left out.
func Files(paths []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err == nil && !fi.IsDir():
			if err = checkInput(p, fi); err == nil {
				add(p)
			}
		case err == nil:
			err = walkTranscripts(p, add)
		}
		if err != nil {
			return nil, fmt.Errorf("scan: %w", err)
		}
	}
	sort.Strings(out)
	return out, nil
}

// walkTranscripts calls add for each transcript file under dir.
func walkTranscripts(dir string, add func(string)) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is skipped, not fatal
		}
		if d.Type().IsRegular() && isTranscript(path) {
			add(path)
		}
		return nil
	})
}

func isTranscript(path string) bool {
	base := filepath.Base(path)
	if strings.HasPrefix(base, "agent-acompact") {
		return false
	}
	if strings.HasSuffix(base, ".jsonl") {
		return true
	}
	return strings.HasSuffix(base, ".json") && (strings.HasPrefix(base, "session-") || filepath.Base(filepath.Dir(path)) == "chats")
}

// Scan reads the new part of every file and returns the candidates found,
// deduplicated by content hash and redacted. bm may be nil (a full scan).
// A redaction failure fails the whole scan: nothing unredacted escapes.
func Scan(files []string, bm *Bookmarks, opt Options) (*Result, error) {
	if bm == nil {
		bm = ParseBookmarks(nil)
	}
	results := scanAll(files, bm, opt, false)
	res := &Result{Bookmarks: &Bookmarks{Version: bookmarksVersion, Files: map[string]Bookmark{}}}
	for k, v := range bm.Files {
		res.Bookmarks.Files[k] = v
	}
	var all []Candidate
	for i, o := range results {
		res.Stats.add(o.stats)
		if k := key(files[i]); o.keep && bm.Files[k] != o.mark {
			res.Bookmarks.Files[k] = o.mark
			res.Moved = true
		}
		all = append(all, o.cands...)
	}
	cands, err := finish(all, localizer(opt.Root, opt.Home))
	if err != nil {
		return nil, err
	}
	res.Candidates = cands
	return res, nil
}

// scanAll scans the files on opt.Workers goroutines (one per CPU by
// default). Each file is stat'ed here first, and one its bookmark says is
// unchanged goes no further: a re-scan with nothing new (most Stop hooks)
// starts no goroutine, whose hand-offs between threads cost more than its
// stats (0.1-0.3 ms).
// calls: read calls (ReadCalls) instead of candidates.
func scanAll(files []string, bm *Bookmarks, opt Options, calls bool) []fileScan {
	results := make([]fileScan, len(files))
	type pending struct {
		i  int
		fi fs.FileInfo
	}
	var todo []pending
	for i, file := range files {
		prev, had := bm.Files[key(file)]
		results[i] = fileScan{mark: prev, keep: had, opt: &opt, calls: calls}
		fi, err := os.Stat(file)
		switch {
		case err != nil:
			results[i].stats.Errors++ // an unreadable file keeps its bookmark
		case !unchanged(fi, prev, had, opt.Since):
			todo = append(todo, pending{i, fi})
		}
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers = min(workers, len(todo)); workers <= 1 {
		for _, p := range todo {
			results[p.i].read(files[p.i], p.fi)
		}
		return results
	}
	var wg sync.WaitGroup
	next := make(chan pending)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				results[p.i].read(files[p.i], p.fi)
			}
		}()
	}
	for _, p := range todo {
		next <- p
	}
	close(next)
	wg.Wait()
	return results
}

// fileScan is what scanning one file gave.
type fileScan struct {
	cands []Candidate
	found *FileCalls // the calls read (calls mode), nil when the file was not read
	err   error      // the calls could not be redacted
	stats Stats
	mark  Bookmark
	keep  bool // mark is to be kept
	opt   *Options
	calls bool // read calls, not candidates
}

// read reads file (fi its stat) from o's bookmark; an unreadable file
// keeps that bookmark and counts as an error.
func (o *fileScan) read(file string, fi fs.FileInfo) {
	var log *callLog
	if o.calls {
		log = newCallLog(o.opt, o.mark, o.keep)
	}
	m, s, st, err := scanFile(file, fi, o.mark, o.keep, log)
	o.stats = st
	if err != nil {
		o.stats.Errors++
		return
	}
	o.mark, o.keep = *m, true
	if log != nil {
		// Redacted here, on the worker: redaction costs more than reading.
		o.found = log.fileCalls(file, s, m)
		o.err = redactCalls(o.found.Calls, map[string]string{})
		return
	}
	o.cands = s.candidates(file)
}

// key is a file's bookmark key: its absolute path, so the Stop hook, a
// manual scan and a default-path scan share one bookmark per file.
func key(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// finish redacts, hashes, merges duplicates and scores.
func finish(all []Candidate, local *strings.Replacer) ([]Candidate, error) {
	index := map[string]int{}
	redacted := map[string]string{}
	seen := map[string]bool{} // hash, session and line: one sighting, even when two paths name one file
	var out []Candidate
	for _, c := range all {
		if err := c.redactAll(local, redacted); err != nil {
			return nil, fmt.Errorf("scan: redact: %w (nothing written)", err)
		}
		c.Hash = c.hash()
		at := c.Hash + "\x00" + c.Session + "\x00" + itoa(c.Line)
		if seen[at] {
			continue
		}
		seen[at] = true
		if j, ok := index[c.Hash]; ok {
			out[j].merge(c)
			continue
		}
		c.Occurrences = 1
		if c.Session != "" {
			c.Sessions = []string{c.Session}
		}
		if c.Tags == nil {
			c.Tags = []string{}
		}
		index[c.Hash] = len(out)
		out = append(out, c)
	}
	for i := range out {
		out[i].score()
	}
	return out, nil
}

// merge counts c, a duplicate of d, into d.
func (d *Candidate) merge(c Candidate) {
	d.Occurrences++
	d.signals.fixConfirmed = d.signals.fixConfirmed || c.signals.fixConfirmed
	if c.Session != "" && !contains(d.Sessions, c.Session) {
		d.Sessions = append(d.Sessions, c.Session)
	}
	if len(d.Evidence) < 8 {
		d.Evidence = append(d.Evidence, c.Evidence...)
	}
}

// localizer rewrites root/ to nothing, root to . and home to ~ (longest
// first: root is usually under home).
func localizer(root, home string) *strings.Replacer {
	var pairs []string
	if root = strings.TrimRight(root, "/"); root != "" {
		pairs = append(pairs, root+"/", "", root, ".")
	}
	if home = strings.TrimRight(home, "/"); home != "" && home != root {
		pairs = append(pairs, home, "~")
	}
	return strings.NewReplacer(pairs...)
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// scanFile reads one file (fi its stat) from its bookmark, and returns
// the bookmark it moved to and the session read. log, when not nil,
// records the file's calls instead of the events candidates need.
func scanFile(path string, fi fs.FileInfo, prev Bookmark, had bool, log *callLog) (*Bookmark, *session, Stats, error) {
	var st Stats
	f, err := openInput(path)
	if err != nil {
		return nil, nil, st, err
	}
	defer f.Close()
	st.Files = 1
	// Detected every time (4 KB): a bookmark written when lore read a
	// Gemini CLI JSONL file as Claude Code's counts bytes, not messages.
	agent := detect(f, path)
	if !had || prev.Agent != agent || log != nil && agent == AgentGemini {
		// Read from the start. The calls of a Gemini CLI chat are read
		// whole every time: its messages are rewritten in place.
		prev = Bookmark{}
	}
	mark := Bookmark{Agent: agent, Size: fi.Size(), MtimeNs: fi.ModTime().UnixNano()}
	s := &session{id: prev.Session, names: map[string]string{}, stats: &st, log: log}
	if err := s.read(f, path, prev, &mark); err != nil {
		return nil, nil, st, err
	}
	if s.id == "" {
		s.id = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	mark.Session = s.id
	return &mark, s, st, nil
}

// read reads the file from prev with the reader of its format.
func (s *session) read(f *os.File, path string, prev Bookmark, mark *Bookmark) error {
	switch {
	case mark.Agent == AgentGemini && !strings.HasSuffix(path, ".json"):
		s.readGeminiJSONL(f, prev, mark)
	case mark.Agent == AgentGemini:
		s.readGeminiFile(f, prev, mark)
	default:
		return s.readJSONL(f, prev, mark)
	}
	return nil
}

// unchanged says the file need not be read: older than since, or the same
// size and time as when it was bookmarked.
func unchanged(fi fs.FileInfo, prev Bookmark, had bool, since time.Time) bool {
	if !since.IsZero() && fi.ModTime().Before(since) {
		return true
	}
	return had && prev.Size == fi.Size() && prev.MtimeNs == fi.ModTime().UnixNano()
}

// readGeminiJSONL reads a Gemini CLI JSONL file past the messages prev
// already read (all of it when the file shrank).
func (s *session) readGeminiJSONL(f *os.File, prev Bookmark, mark *Bookmark) {
	skip, prevLines := 0, 0
	if prev.Offset > 0 && mark.Size >= prev.Size {
		skip, prevLines = int(prev.Offset), prev.Line
	}
	s.resumed = skip > 0
	settled, lines := s.geminiJSONL(f, skip, prevLines)
	mark.Offset, mark.Line = int64(settled), lines
	s.stats.Bytes += mark.Size
}

// readGeminiFile reads an older Gemini CLI chat file (one JSON document)
// past the messages prev already read.
func (s *session) readGeminiFile(f *os.File, prev Bookmark, mark *Bookmark) {
	skip := max(int(prev.Offset), 0)
	s.resumed = skip > 0
	count, err := s.geminiFile(f, skip)
	if err != nil && count == 0 {
		s.stats.BadJSON++
	}
	if count < skip { // rewritten shorter: read it all again
		s.events = nil
		if _, err := f.Seek(0, io.SeekStart); err == nil {
			count, _ = s.geminiFile(f, 0)
		}
	}
	mark.Offset, mark.Line = int64(count), count
	s.stats.Bytes += mark.Size
}

// readJSONL reads a Claude Code or Codex file line by line from prev's
// offset, unless the file was rewritten since.
func (s *session) readJSONL(f *os.File, prev Bookmark, mark *Bookmark) error {
	off, line := int64(0), 0
	if resumable(f, prev, mark.Size) {
		off, line = prev.Offset, prev.Line
		s.resumed = true
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return err
	}
	read := s.claudeLine
	if mark.Agent == AgentCodex {
		read = s.codexLine
	}
	lr := newLineReader(f, off, line, s.stats)
	for {
		l, ok := lr.next()
		if !ok {
			break
		}
		if s.log != nil {
			s.log.lineStart = lr.offset - int64(len(l)) - 1
		}
		l = bytes.TrimLeft(l, " \t\xef\xbb\xbf") // indentation, a UTF-8 BOM
		if len(l) == 0 || l[0] != '{' {
			if len(bytes.TrimSpace(l)) > 0 {
				s.stats.BadJSON++
			}
			continue
		}
		read(l, lr.line)
	}
	lr.release()
	s.stats.Bytes += lr.offset - off
	mark.Offset, mark.Line = lr.offset, lr.line
	if s.log != nil {
		mark.Offset, mark.Line = s.log.holdBack(lr.offset, lr.line)
	}
	mark.Tail = tailHash(f, mark.Offset)
	return nil
}

// resumable says a file of size bytes can be read on from prev: the bytes
// before its offset are those read then.
func resumable(f *os.File, prev Bookmark, size int64) bool {
	return prev.Offset > 0 && prev.Offset <= size && tailHash(f, prev.Offset) == prev.Tail
}

// candidates runs both tiers over the session's events.
func (s *session) candidates(path string) []Candidate {
	out, blockIdx := s.blocks()
	out = append(out, tier2(s.events, blockIdx, s.resumed, s.cwd)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	for i := range out {
		out[i].File, out[i].Session = path, s.id
		for j := range out[i].Evidence {
			out[i].Evidence[j].File = path
		}
	}
	return out
}

// blocks are the Tier 1 candidates of the session, and where each was.
func (s *session) blocks() (out []Candidate, refs []blockRef) {
	for i, e := range s.events {
		if e.Kind != AssistantText || !HasBlock(e.Text) {
			continue
		}
		for _, b := range ParseBlocks(e.Text) {
			c := fromBlock(b)
			c.Line = e.Line
			c.Evidence = []Evidence{{Line: e.Line, Text: "assistant: " + clip(blockText(e.Text, b.Offset), 600)}}
			out = append(out, c)
			refs = append(refs, blockRef{i, c.Tool, c.Trigger})
		}
	}
	return out, refs
}

func blockText(text string, off int) string {
	rest := text[off:]
	for _, end := range []string{lessonClose, pkClose} {
		if i := strings.Index(rest, end); i >= 0 {
			return rest[:i+len(end)]
		}
	}
	return rest
}

// detect tells the agent from the file: older Gemini CLI chat files are
// one JSON document, newer ones JSONL opened by a line with projectHash;
// Codex rollout lines carry a payload; the rest is Claude Code.
func detect(f *os.File, path string) string {
	if strings.HasSuffix(path, ".json") {
		return AgentGemini
	}
	head := make([]byte, 4096)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	if first, _, _ := bytes.Cut(head, []byte("\n")); bytes.Contains(first, []byte(`"projectHash"`)) {
		return AgentGemini
	}
	if bytes.Contains(head, []byte(`"type":"session_meta"`)) || bytes.Contains(head, []byte(`"payload":`)) {
		return AgentCodex
	}
	return AgentClaude
}

// tailHash hashes the file's first KB and the 256 bytes before off: if
// they differ next time, the file was rewritten and is read again.
func tailHash(f *os.File, off int64) string {
	head := make([]byte, min(off, 1024))
	tail := make([]byte, off-max(off-256, 0))
	if _, err := f.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	if _, err := f.ReadAt(tail, off-int64(len(tail))); err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	h := sha256.Sum256(append(head, tail...))
	return hex.EncodeToString(h[:8])
}

// DefaultPaths are the agents' transcript locations for the repository at
// root: Claude Code's project folder (~/.claude/projects/<root with / and
// . as ->), Codex rollout files whose session ran under root, and Gemini
// CLI's chat folders for root. home is the user's home folder.
func DefaultPaths(root, home string) []string {
	out := claudeProjects(envOr("CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude")), root)
	codex := envOr("CODEX_HOME", filepath.Join(home, ".codex"))
	out = append(out, codexFiles(filepath.Join(codex, "sessions"), root)...)
	return append(out, geminiChats(root, home)...)
}

// envOr is the environment variable name, or def when it is unset or
// empty.
func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// claudeProjects are Claude Code's project folders for root: root with /
// and . as -, and (when it differs) with every other character but
// letters, digits and - as - too.
func claudeProjects(claude, root string) []string {
	dashed := strings.NewReplacer("/", "-", ".", "-").Replace(root)
	out := []string{filepath.Join(claude, "projects", dashed)}
	if alnum := strings.Map(alnumOrDash, root); alnum != dashed {
		out = append(out, filepath.Join(claude, "projects", alnum))
	}
	return out
}

func alnumOrDash(r rune) rune {
	if r < 256 && nameBytes[r] {
		return r
	}
	return '-'
}

// geminiChats are Gemini CLI's chat folders for root: the one named by
// root's slug in ~/.gemini/projects.json ({"projects":{path: slug}}), any
// tmp/<slug> whose .project_root file names root (the registry may lag),
// and the older folder named by the SHA-256 of root. GEMINI_CLI_HOME
// stands for the home folder, as in Gemini CLI.
func geminiChats(root, home string) []string {
	home = envOr("GEMINI_CLI_HOME", home)
	tmp := filepath.Join(home, ".gemini", "tmp")
	slugs := geminiRegistered(filepath.Join(home, ".gemini", "projects.json"), root)
	slugs = geminiOwned(tmp, root, slugs)
	sum := sha256.Sum256([]byte(root))
	if hash := hex.EncodeToString(sum[:]); !contains(slugs, hash) {
		slugs = append(slugs, hash)
	}
	out := make([]string, len(slugs))
	for i, slug := range slugs {
		out[i] = filepath.Join(tmp, slug, "chats")
	}
	return out
}

// geminiOwned adds to slugs the folders under tmp whose .project_root
// file names root.
func geminiOwned(tmp, root string, slugs []string) []string {
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		owner, err := os.ReadFile(filepath.Join(tmp, e.Name(), ".project_root"))
		if err == nil && strings.TrimSpace(string(owner)) == root && !contains(slugs, e.Name()) {
			slugs = append(slugs, e.Name())
		}
	}
	return slugs
}

// geminiRegistered is root's slug in Gemini CLI's projects.json, if it
// has a usable one.
func geminiRegistered(registry, root string) []string {
	var reg struct {
		Projects map[string]string `json:"projects"`
	}
	data, err := os.ReadFile(registry)
	if err != nil || json.Unmarshal(data, &reg) != nil {
		return nil
	}
	if slug := reg.Projects[root]; slug != "" && filepath.Base(slug) == slug {
		return []string{slug}
	}
	return nil
}

// codexFiles lists rollout files whose session_meta cwd is root or below.
func codexFiles(dir, root string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !strings.HasSuffix(path, ".jsonl") {
			return nil
		}
		if cwd := codexCwd(path); cwd == root || strings.HasPrefix(cwd, root+string(filepath.Separator)) {
			out = append(out, path)
		}
		return nil
	})
	return out
}

// codexCwd reads the cwd of a rollout's first line, session_meta. That
// line holds the base instructions (21.5 KB by default, any size with a
// custom instructions file), so it is read whole through the scanner's
// line reader, bounded by MaxLine; past that, "" (not this repository's,
// as far as lore can tell).
func codexCwd(path string) string {
	f, err := openInput(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var st Stats
	lr := newLineReader(f, 0, 0, &st)
	defer lr.release()
	line, ok := lr.next()
	if !ok || lr.line != 1 {
		return ""
	}
	var rec struct {
		Type    string `json:"type"`
		Payload struct {
			Cwd string `json:"cwd"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &rec) != nil || rec.Type != "session_meta" {
		return ""
	}
	return rec.Payload.Cwd
}
