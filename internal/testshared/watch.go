package testshared

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// OutsideDir is a directory outside any deck holding a secret file and a
// FIFO, watched with inotify, so that a test can assert that nothing in it
// was opened or read (not only that the answer was an error). A FIFO
// opened for reading blocks until a writer comes, so a reader that opens
// it also shows as a hung request.
type OutsideDir struct {
	Dir    string
	Secret string // a regular file whose content must never be shown
	FIFO   string
	fd     int
}

// SecretContent is the content of OutsideDir.Secret.
const SecretContent = "top secret line\n"

// NewOutsideDir makes and watches the directory; the test skips when the
// machine has no FIFOs or inotify.
func NewOutsideDir(t testing.TB) *OutsideDir {
	t.Helper()
	w := &OutsideDir{Dir: t.TempDir()}
	w.Secret = filepath.Join(w.Dir, "secret.dat")
	if err := os.WriteFile(w.Secret, []byte(SecretContent), 0o600); err != nil {
		t.Fatal(err)
	}
	w.FIFO = filepath.Join(w.Dir, "pipe")
	if err := syscall.Mkfifo(w.FIFO, 0o600); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		t.Skipf("inotify unavailable: %v", err)
	}
	if _, err := syscall.InotifyAddWatch(fd, w.Dir, syscall.IN_OPEN|syscall.IN_ACCESS); err != nil {
		syscall.Close(fd)
		t.Skipf("inotify watch: %v", err)
	}
	w.fd = fd
	t.Cleanup(func() { syscall.Close(fd) })
	return w
}

// AssertUntouched fails the test when any file of the directory was opened
// or read since the watch began (or since the previous call).
func (w *OutsideDir) AssertUntouched(t testing.TB, what string) {
	t.Helper()
	buf := make([]byte, 4096)
	n, err := syscall.Read(w.fd, buf)
	if err == syscall.EAGAIN || n <= 0 {
		return
	}
	t.Fatalf("%s: a file outside the deck was opened (%d bytes of inotify events)", what, n)
}
