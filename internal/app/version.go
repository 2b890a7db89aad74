package app

import (
	"runtime/debug"
	"strings"
)

// Release is the version this source tree releases as; .claude-plugin's
// plugin.json and marketplace.json carry the same string (a test holds
// them to it), so the plugin and the binaries name one version.
const Release = "0.1.0"

// stamped is set at link time (make build: -ldflags "-X
// github.com/lore-agents/lore/internal/app.stamped=$(git describe --tags
// --always --dirty)"), so a build from a checkout names its commit.
var stamped string

// Version is what lore --version prints: "lore" and the stamped version,
// else the module version (go install ...@v0.1.0), else the release with
// the VCS revision of a development build.
func Version() string {
	v := stamped
	if v == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			v = buildVersion(bi)
		}
	}
	if v == "" {
		v = "v" + Release + "-devel"
	}
	return "lore " + v
}

// buildVersion is a Go build's module version, or the release and its
// VCS revision for a development build ("" when it has neither).
func buildVersion(bi *debug.BuildInfo) string {
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
