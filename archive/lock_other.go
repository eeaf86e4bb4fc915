//go:build !unix

package archive

// fileLock is a no-op where flock(2) does not exist: [Options.Exclusive]
// is not enforced on such systems (docs/operations.md says so).
type fileLock struct{}

func lockFile(string) (*fileLock, error) { return &fileLock{}, nil }

func (l *fileLock) release() error { return nil }
