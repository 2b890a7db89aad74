package manifest

import "syscall"

// StatPath stats p (following symlinks, as the build reads it); a path that
// cannot be stat'ed is Absent.
func StatPath(p string) Stat {
	var st syscall.Stat_t
	if syscall.Stat(p, &st) != nil {
		return Stat{Absent: true}
	}
	return Stat{Ino: st.Ino, Size: uint64(st.Size), Mtime: st.Mtimespec.Nano(), Ctime: st.Ctimespec.Nano(),
		Dir: st.Mode&syscall.S_IFMT == syscall.S_IFDIR}
}
