//go:build !unix

package sysread

import (
	"io"
	"os"
)

// ReadFile reads the file at path, refusing one of more than limit bytes
// (limit < 0: none) by its size before it is read.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if limit >= 0 && st.Size() > limit {
		return nil, &TooLargeError{Path: path, Size: st.Size()}
	}
	r := io.Reader(f)
	if limit >= 0 {
		r = io.LimitReader(f, limit+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if limit >= 0 && int64(len(data)) > limit {
		return nil, &TooLargeError{Path: path, Size: int64(len(data))}
	}
	return data, nil
}
