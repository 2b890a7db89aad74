package filewrite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrNotPrivate is returned by PrivateDir for a folder that other users
// could read or write.
var ErrNotPrivate = errors.New("not private to this user")

// PrivateDir makes dir (mode 0700) if it is missing and checks that it is
// this user's alone: a folder, not a link, owned by the user, with no
// access for group or others. The hook keeps session state, the user's
// prompts among it, in a world-writable place (/dev/shm, /tmp), where
// another user could have made the folder first to read what lands in it.
func PrivateDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("make %s: %w", dir, err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if why := NotPrivate(info); why != "" {
		return fmt.Errorf("%s is %w (%s): remove it", dir, ErrNotPrivate, why)
	}
	return nil
}

// NotPrivate says why the folder info describes is not this user's alone
// ("" when it is): a link, not a folder, access for others, another owner.
func NotPrivate(info fs.FileInfo) string {
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return "a symbolic link"
	case !info.IsDir():
		return "not a folder"
	}
	return othersAccess(info)
}
