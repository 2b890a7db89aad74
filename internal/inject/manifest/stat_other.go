//go:build !linux && !darwin

package manifest

import "os"

// StatPath stats p with what every platform has: size and modification
// time (no inode or change time).
func StatPath(p string) Stat {
	fi, err := os.Stat(p)
	if err != nil {
		return Stat{Absent: true}
	}
	return Stat{Size: uint64(fi.Size()), Mtime: fi.ModTime().UnixNano(), Dir: fi.IsDir()}
}
