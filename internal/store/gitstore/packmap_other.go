//go:build !unix

package gitstore

import "errors"

// mapsFiles: pack files are read as files here.
const mapsFiles = false

// mapFile does not map where there is no mmap: the pack is read as a file.
func mapFile(string) ([]byte, func() error, error) {
	return nil, nil, errors.New("gitstore: no mmap")
}
