//go:build unix

package manifest

import (
	"os"
	"syscall"
)

// mapFile maps the file read-only: the hook then touches only the pages it
// reads (each page fault costs microseconds; reading the whole file into a
// fresh buffer would fault every page). The manifest is replaced by rename,
// never rewritten in place, so the mapped bytes never change under us.
func mapFile(f *os.File, size int) ([]byte, func() error, error) {
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return readFile(f, size)
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
