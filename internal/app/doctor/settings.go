package doctor

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lore-agents/lore/internal/integrate/agent"
)

// settingsFile is one settings file that applies to an agent in a work tree.
type settingsFile struct {
	path    string
	name    string // as reported: relative to the work tree, else the path
	managed bool   // set by an administrator
}

// settingsFiles are the agent's settings files that apply in the work tree
// at root, the highest precedence first: for Claude Code managed settings
// (managed-settings.d/ over managed-settings.json), local, project, user
// (docs/clients.md, Trust); for Gemini CLI system, workspace, user.
func settingsFiles(a *agent.Agent, root string, p Places) []settingsFile {
	project := func(rel string) settingsFile {
		return settingsFile{path: filepath.Join(root, filepath.FromSlash(rel)), name: rel}
	}
	var files []settingsFile
	switch a.Name {
	case "claude":
		files = managedClaude(p.ClaudeManaged)
		files = append(files, project(".claude/settings.local.json"), project(a.Settings), settingsFile{path: p.ClaudeUser})
	case "gemini":
		files = []settingsFile{{path: p.GeminiSystem, managed: true}, project(a.Settings), {path: p.GeminiUser}}
	}
	return files
}

// managedClaude lists Claude Code's managed settings in dir: the drop-ins
// of managed-settings.d/ (later names win), then managed-settings.json.
func managedClaude(dir string) []settingsFile {
	if dir == "" {
		return nil
	}
	var files []settingsFile
	entries, _ := os.ReadDir(filepath.Join(dir, "managed-settings.d")) // none: no drop-ins
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() > entries[j].Name() })
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") && !strings.HasPrefix(e.Name(), ".") {
			files = append(files, settingsFile{path: filepath.Join(dir, "managed-settings.d", e.Name()), managed: true})
		}
	}
	return append(files, settingsFile{path: filepath.Join(dir, "managed-settings.json"), managed: true})
}

// read returns the file's bytes, nil when there is none.
func (f settingsFile) read() ([]byte, error) {
	if f.path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

func (f settingsFile) label() string {
	if f.name != "" {
		return f.name
	}
	return f.path
}

// hooksOff reports the settings file that turns every hook of the agent
// off: the file of highest precedence that sets the agent's off setting
// decides. A file that cannot be read leaves it unmeasured.
func hooksOff(a *agent.Agent, files []settingsFile) []Finding {
	var out []Finding
	for _, f := range files {
		data, err := f.read()
		if err == nil && data == nil {
			continue
		}
		set, off := false, false
		if err == nil {
			set, off, err = a.OffIn(data)
		}
		if err != nil {
			out = append(out, Finding{a.Name, Info, fmt.Sprintf("cannot read %s (%v): whether it turns hooks off is unmeasured", f.label(), err), ""})
			continue
		}
		if !set {
			continue
		}
		if off {
			out = append(out, offFinding(a, f))
		}
		return out
	}
	return out
}

func offFinding(a *agent.Agent, f settingsFile) Finding {
	key, value := a.OffSetting()
	msg := fmt.Sprintf("%s turns every hook off (%s: %s), lore's too", f.label(), key, value)
	if f.managed {
		return Finding{a.Name, Action, msg, "managed settings override every other file: ask the administrator who set them"}
	}
	return Finding{a.Name, Action, msg, "remove " + key + " from " + f.label()}
}

// managedOnly reports Claude Code managed settings that let only managed
// hooks run (allowManagedHooksOnly), which leaves lore's out.
func managedOnly(files []settingsFile) []Finding {
	for _, f := range files {
		if !f.managed {
			continue
		}
		data, err := f.read()
		if err != nil || data == nil {
			continue
		}
		if v, _ := agent.Setting(data, false, "allowManagedHooksOnly"); v == "true" {
			return []Finding{{"claude", Action, f.label() + " allows only managed hooks (allowManagedHooksOnly): lore's hooks do not run",
				"managed settings override every other file: ask the administrator who set them"}}
		}
	}
	return nil
}

// geminiFix is the step that makes Gemini CLI load the project's settings.
const geminiFix = "start `gemini` here and trust the folder (or /permissions), or set GEMINI_CLI_TRUST_WORKSPACE=true for a headless run; " +
	"not --skip-trust: it runs without .gemini/settings.json, so without lore"

// geminiTrust reports whether Gemini CLI trusts the folder at root, without
// which it ignores .gemini/settings.json and so lore's hooks (headless runs
// exit 55; --skip-trust runs without them).
func geminiTrust(root string, p Places, files []settingsFile) []Finding {
	switch p.GeminiTrustEnv {
	case "true":
		return []Finding{{"gemini", Info, "GEMINI_CLI_TRUST_WORKSPACE=true here: Gemini CLI started from this shell trusts every folder", ""}}
	case "false":
		return []Finding{{"gemini", Action, "GEMINI_CLI_TRUST_WORKSPACE=false here: Gemini CLI started from this shell ignores .gemini/settings.json, so lore's hooks", "unset GEMINI_CLI_TRUST_WORKSPACE"}}
	}
	if folderTrustOff(files) {
		return nil
	}
	level, rule, err := trustedFolder(p.GeminiTrusted, root)
	switch {
	case err != nil:
		return []Finding{{"gemini", Action, fmt.Sprintf("cannot read %s: %v (Gemini CLI refuses to start)", p.GeminiTrusted, err), "fix " + p.GeminiTrusted}}
	case level == "TRUST_FOLDER" || level == "TRUST_PARENT":
		return nil
	case level == "DO_NOT_TRUST":
		return []Finding{{"gemini", Action, fmt.Sprintf("%s marks %s DO_NOT_TRUST: Gemini CLI ignores .gemini/settings.json here, so lore's hooks", p.GeminiTrusted, rule), geminiFix}}
	}
	return []Finding{{"gemini", Action, "Gemini CLI does not trust this folder yet: it ignores .gemini/settings.json here, so lore's hooks do not run (a headless run exits 55)", geminiFix}}
}

// folderTrustOff reports whether the settings turn Gemini CLI's folder
// trust off (security.folderTrust.enabled: false), trusting every folder.
func folderTrustOff(files []settingsFile) bool {
	for _, f := range files {
		if f.name != "" {
			continue // the workspace's own settings cannot vouch for it
		}
		data, err := f.read()
		if err != nil || data == nil {
			continue
		}
		if v, _ := agent.Setting(data, true, "security", "folderTrust", "enabled"); v != "" {
			return v == "false"
		}
	}
	return false
}

// trustedFolder is the trust level Gemini CLI's trustedFolders.json gives
// dir: the longest rule whose folder holds dir (TRUST_PARENT: the rule's
// parent folder), "" when none does.
func trustedFolder(file, dir string) (level, rule string, err error) {
	if file == "" {
		return "", "", nil
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", nil
	}
	if err != nil {
		return "", "", err
	}
	var rules map[string]string
	if err := json.Unmarshal(data, &rules); err != nil {
		return "", "", err
	}
	real := pathForms(dir)[0]
	for r, l := range rules {
		folder := r
		if l == "TRUST_PARENT" {
			folder = filepath.Dir(r)
		}
		if within(real, pathForms(folder)[0]) && len(r) > len(rule) {
			level, rule = l, r
		}
	}
	return level, rule, nil
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
