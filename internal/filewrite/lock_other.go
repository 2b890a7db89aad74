//go:build !unix

package filewrite

import "os"

// Lock is a no-op where flock is missing: appends stay whole lines, and a
// race between parallel writers can at worst repeat a line.
func Lock(*os.File) error { return nil }
