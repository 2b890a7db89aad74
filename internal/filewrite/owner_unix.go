//go:build unix

package filewrite

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// othersAccess says how users other than this one can reach the folder
// info describes ("" when they cannot).
func othersAccess(info fs.FileInfo) string {
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Sprintf("mode %04o", perm)
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Sprintf("owned by uid %d", st.Uid)
	}
	return ""
}
