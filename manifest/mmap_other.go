//go:build !unix

package manifest

import "os"

func mapFile(f *os.File, size int) ([]byte, func() error, error) { return readFile(f, size) }
