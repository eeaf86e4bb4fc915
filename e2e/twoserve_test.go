package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/taflmail/taflmail/mailer/devstack"
)

// buildTaflmail builds the taflmail binary into a temporary directory.
func buildTaflmail(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "taflmail")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/taflmail/taflmail/cmd/taflmail").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// daemon is a `taflmail serve` process.
type daemon struct {
	cmd    *exec.Cmd
	log    *lockedBuffer
	exited chan struct{}
	err    error
}

// startServe starts `taflmail serve` with env and returns at once.
func startServe(t *testing.T, bin string, env []string) *daemon {
	t.Helper()
	d := &daemon{cmd: exec.Command(bin, "serve"), log: &lockedBuffer{}, exited: make(chan struct{})}
	d.cmd.Env = env
	d.cmd.Stdout, d.cmd.Stderr = d.log, d.log
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { d.err = d.cmd.Wait(); close(d.exited) }()
	t.Cleanup(func() {
		d.cmd.Process.Kill()
		<-d.exited
	})
	return d
}

// waitLog waits until the daemon logged want, failing if it exits first.
func (d *daemon) waitLog(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(d.log.String(), want) {
		select {
		case <-d.exited:
			t.Fatalf("taflmail serve exited (%v) before logging %q:\n%s", d.err, want, d.log.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("taflmail serve did not log %q within a minute:\n%s", want, d.log.String())
		}
	}
}

// A second `taflmail serve` on the archive of a running one refuses to
// start with a clear message (issue 8 §3: two daemons on one archive sent
// 28 % of replies twice); once the first is killed with SIGKILL, a new one
// starts: the OS lock does not outlive its process.
func TestSecondServeRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the taflmail binary")
	}
	stack, err := devstack.Start("", map[string]string{"tafl": "secret"})
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	bin := buildTaflmail(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "taflmail.db")
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + dir,
		"TAFLMAIL_IMAP_ADDR=" + stack.IMAPAddr(), "TAFLMAIL_IMAP_USERNAME=tafl", "TAFLMAIL_IMAP_PASSWORD=secret",
		"TAFLMAIL_IMAP_SECURITY=none",
		"TAFLMAIL_SMTP_ADDR=" + stack.SMTPAddr(), "TAFLMAIL_SMTP_SECURITY=none",
		"TAFLMAIL_SERVER_ADDRESS=" + stack.Address("tafl"), "TAFLMAIL_SERVER_DOMAIN=" + stack.Domain(),
		"TAFLMAIL_ARCHIVE_PATH=" + db,
	}
	first := startServe(t, bin, env)
	first.waitLog(t, "taflmail serving")

	second := startServe(t, bin, env)
	select {
	case <-second.exited:
	case <-time.After(time.Minute):
		t.Fatalf("a second taflmail serve on the same archive kept running:\n%s", second.log.String())
	}
	if second.err == nil {
		t.Errorf("the second taflmail serve exited with status 0, want an error")
	}
	out := second.log.String()
	for _, want := range []string{"another taflmail serve is running on this archive", db + ".lock", "pid " + strconv.Itoa(first.cmd.Process.Pid)} {
		if !strings.Contains(out, want) {
			t.Errorf("the second serve's message does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "taflmail serving") {
		t.Errorf("the second serve got as far as serving:\n%s", out)
	}

	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-first.exited
	third := startServe(t, bin, env)
	third.waitLog(t, "taflmail serving")
	if err := third.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-third.exited:
		if third.err != nil {
			t.Errorf("taflmail serve after SIGTERM: %v\n%s", third.err, third.log.String())
		}
	case <-time.After(30 * time.Second):
		t.Errorf("taflmail serve did not stop within 30 s of SIGTERM")
	}
}
