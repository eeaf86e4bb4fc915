//go:build !unix

package config

import "os/exec"

// killGroupOnCancel leaves exec's default, which kills the shell alone.
func killGroupOnCancel(*exec.Cmd) {}
