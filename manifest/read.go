package manifest

import (
	"io"
	"os"
)

// readFile reads the whole file: the fallback where mapping is unavailable.
func readFile(f *os.File, size int) ([]byte, func() error, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
