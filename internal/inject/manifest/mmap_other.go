//go:build !unix

package manifest

import (
	"math"
	"os"
)

// load reads the whole file where there is no mmap.
func load(path string) ([]byte, func() error, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	if len(data) < headerSize || int64(len(data)) > math.MaxUint32 {
		return nil, nil, errf("%s: %d bytes", path, len(data))
	}
	return data, func() error { return nil }, nil
}
