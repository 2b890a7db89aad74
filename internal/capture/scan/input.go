package scan

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// maxFile is the largest transcript a scan reads (4 GiB; the longest
// sessions measured are a few hundred MB). With MaxLine per line, it
// bounds what one file can cost.
const maxFile = 4 << 30

// checkInput refuses what a transcript cannot be: a device (/dev/zero
// never ends), a named pipe (opening one waits for a writer), a socket, or
// a file over maxFile. fi is path's stat.
func checkInput(path string, fi fs.FileInfo) error {
	switch {
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s): not read", path, fileKind(fi.Mode()))
	case fi.Size() > maxFile:
		return fmt.Errorf("%s is %d MB, over the %d MB a transcript may be: not read", path, fi.Size()>>20, maxFile>>20)
	}
	return nil
}

// fileKind names a file's type for checkInput's message.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	}
	return "mode " + m.String()
}

// openInput opens a transcript for reading, refusing what checkInput
// refuses, checked on the open file: a path listed as a file may be a pipe
// by now. O_NONBLOCK keeps the open of a pipe from waiting for a writer;
// on a regular file it changes nothing.
func openInput(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = checkInput(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
