//go:build !unix

package hooks

import "os"

func readFile(path string) ([]byte, error) { return os.ReadFile(path) }
