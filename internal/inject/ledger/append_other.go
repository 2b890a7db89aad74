//go:build !unix

package ledger

func appendLine(root, path string, line []byte) (int64, error) { return appendFile(root, path, line) }
