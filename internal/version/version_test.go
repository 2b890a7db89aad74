package version

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// The plugin and its marketplace entry name the release the binaries do.
func TestPluginVersionIsRelease(t *testing.T) {
	for _, f := range []string{"plugin.json", "marketplace.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", ".claude-plugin", f))
		if os.IsNotExist(err) && f == "marketplace.json" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Version string `json:"version"`
			Plugins []struct {
				Version string `json:"version"`
			} `json:"plugins"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got := []string{doc.Version}
		if f == "marketplace.json" {
			got = got[:0]
			for _, p := range doc.Plugins {
				got = append(got, p.Version)
			}
		}
		for _, v := range got {
			if v != Release {
				t.Errorf("%s: version %q, want %q (version.Release)", f, v, Release)
			}
		}
	}
}

func TestBuildVersion(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}}
	for _, c := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"module version", debug.BuildInfo{Main: debug.Module{Version: "v0.2.0"}}, "v0.2.0"},
		{"checkout", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, "v" + Release + "-devel+0123456789ab.dirty"},
		{"neither", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, ""},
		{"stamped", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: append([]debug.BuildSetting{
			{Key: "-ldflags", Value: `"-X github.com/lore-agents/lore/internal/version.stamped=v0.1.0-2-gabc"`}}, rev...)}, "v0.1.0-2-gabc"},
	} {
		if got := FromBuildInfo(&c.bi); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestVersionStamped(t *testing.T) {
	defer func(s string) { stamped = s }(stamped)
	stamped = "v0.1.0-3-gabc1234-dirty"
	if got := String(); got != "v0.1.0-3-gabc1234-dirty" {
		t.Errorf("String() = %q", got)
	}
}
