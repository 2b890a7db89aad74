// Package version is the one version string of lore's binaries and its
// Claude Code plugin (docs/design.md, MCP server).
package version

import (
	"runtime/debug"
	"strings"
)

// Release is the version this source tree releases as; .claude-plugin's
// plugin.json and marketplace.json carry the same string (a test holds
// them to it), so the plugin and the binaries name one version.
const Release = "0.1.0"

// stamped is set at link time (make build: -ldflags "-X
// github.com/lore-agents/lore/internal/version.stamped=$(git describe --tags
// --always --dirty)"), so a build from a checkout names its commit.
var stamped string

// stampFlag is how the -ldflags setting of a stamped build names the stamp.
const stampFlag = "github.com/lore-agents/lore/internal/version.stamped="

// String is the version: the stamped one, else the module version (go
// install ...@v0.1.0), else the release with the VCS revision of a
// development build.
func String() string {
	v := stamped
	if v == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			v = FromBuildInfo(bi)
		}
	}
	if v == "" {
		v = "v" + Release + "-devel"
	}
	return v
}

// FromBuildInfo is a Go build's version, as String says it, read from
// its build info (lore doctor reads lore-hook's this way, without running
// it): the stamp in its -ldflags, else its module version, else the
// release and its VCS revision for a development build ("" when it has
// none of them).
func FromBuildInfo(bi *debug.BuildInfo) string {
	for _, kv := range bi.Settings {
		if _, stamp, ok := strings.Cut(kv.Value, stampFlag); ok && kv.Key == "-ldflags" {
			return strings.Fields(strings.Trim(stamp, `"'`))[0]
		}
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			if kv.Value == "true" {
				dirty = ".dirty"
			}
		}
	}
	if rev == "" {
		return ""
	}
	return "v" + Release + "-devel+" + strings.TrimSpace(rev[:min(12, len(rev))]) + dirty
}
