//go:build !unix

package filewrite

import "io/fs"

// othersAccess is "" where files have no uid and mode bits (Windows, whose
// temp dir is the user's own).
func othersAccess(fs.FileInfo) string { return "" }
