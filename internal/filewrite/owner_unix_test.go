//go:build unix

package filewrite

import (
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// dirInfo is a folder's stat as another user's folder would give it.
type dirInfo struct {
	mode fs.FileMode
	uid  int
}

func (d dirInfo) Name() string       { return "lore-0" }
func (d dirInfo) Size() int64        { return 4096 }
func (d dirInfo) Mode() fs.FileMode  { return fs.ModeDir | d.mode }
func (d dirInfo) ModTime() time.Time { return time.Time{} }
func (d dirInfo) IsDir() bool        { return true }
func (d dirInfo) Sys() any           { return &syscall.Stat_t{Uid: uint32(d.uid)} }

func TestNotPrivateOwner(t *testing.T) {
	me := os.Getuid()
	for _, tc := range []struct {
		info dirInfo
		want string
	}{
		{dirInfo{0o700, me}, ""},
		{dirInfo{0o700, me + 1}, "owned by uid"},
		{dirInfo{0o750, me}, "mode 0750"},
		{dirInfo{0o777, me}, "mode 0777"},
	} {
		got := NotPrivate(tc.info)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%+v: %q, want %q", tc.info, got, tc.want)
		}
	}
}
