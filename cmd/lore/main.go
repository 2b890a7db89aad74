// Command lore is a git-native memory for coding agents. See README.md.
package main

import "os"

func main() {
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
