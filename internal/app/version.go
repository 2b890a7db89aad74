package app

import (
	"runtime/debug"
	"strings"
)

// Version is what lore --version prints: "lore" and the module version,
// or the VCS revision of a development build.
func Version() string {
	v := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = buildVersion(bi)
	}
	if v == "" {
		v = "(devel)"
	}
	return "lore " + v
}

// buildVersion is a Go build's module version, or its VCS revision for a
// development build ("" when it has neither).
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
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return ""
	}
	return strings.TrimSpace(rev[:min(12, len(rev))]) + dirty
}
