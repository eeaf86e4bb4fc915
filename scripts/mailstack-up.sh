#!/usr/bin/env bash
# mailstack-up.sh — start a private, throwaway mail system on loopback for
# taflmail's integration tests (mailer: TestInboxMailstack; e2e:
# TestGameByMail*, whole games through the referee):
#
#   Postfix  SMTP 127.0.0.1:$MAILSTACK_SMTP_PORT  (no TLS, no AUTH, no relaying)
#      │ LMTP 127.0.0.1:$MAILSTACK_LMTP_PORT
#      ▼
#   Dovecot  IMAP 127.0.0.1:$MAILSTACK_IMAP_PORT  (plain-text LOGIN allowed)
#
# Only the domains in $MAILSTACK_DOMAINS are delivered; Postfix answers every
# other recipient with 550, so no mail can leave the machine. The system's own
# /etc/postfix and /etc/dovecot instances are neither configured nor started:
# all configuration and state live under $MAILSTACK_DIR.
#
# Needs root on Debian/Ubuntu; installs dovecot-imapd, dovecot-lmtpd and
# postfix with apt-get when they are missing. Safe to run again: a stack
# already running from $MAILSTACK_DIR is stopped and wiped first.
#
# Settings (environment):
#   MAILSTACK_DIR        state folder              /tmp/taflmail-mailstack
#   MAILSTACK_IMAP_PORT  Dovecot IMAP              10143
#   MAILSTACK_SMTP_PORT  Postfix SMTP              10025
#   MAILSTACK_LMTP_PORT  Dovecot LMTP              10024
#   MAILSTACK_OAUTH2_PORT  the OAuth2 token endpoint 10080
#                        Dovecot asks (oauth2 passdb, introspection by POST)
#                        for XOAUTH2 and OAUTHBEARER log-ins; nothing of the
#                        stack listens there: a test that logs in with a
#                        token serves it (mailer: TestInboxOAuth2Mailstack)
#                        a port may be 'auto': the first free port from the
#                        default up (for a shared machine, e.g. .ci/run)
#   MAILSTACK_DOMAINS    mail domains (spaces)     taflmail.test
#   MAILSTACK_USERS      local parts, or '*'       *
#                        '*' = every local part of the domains exists and
#                        logs in with the password (fresh accounts per test)
#   MAILSTACK_PASSWORD   password of every user    secret
#
# On success it writes $MAILSTACK_DIR/env (KEY=value lines) and prints it:
#   set -a; . "$MAILSTACK_DIR/env"; set +a; go test ./mailer/...
# Stop it with scripts/mailstack-down.sh.
set -euo pipefail

dir=${MAILSTACK_DIR:-/tmp/taflmail-mailstack}
domains=${MAILSTACK_DOMAINS:-taflmail.test}
users=${MAILSTACK_USERS:-*}
password=${MAILSTACK_PASSWORD:-secret}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
first_domain=${domains%% *}

started=$SECONDS
say() { echo "mailstack-up: [$((SECONDS - started))s] $*"; }
die() { echo "mailstack-up: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "must run as root (it installs packages and starts daemons)"
case $password in *[[:space:]:]*) die "MAILSTACK_PASSWORD must not contain spaces or colons" ;; esac

# ------------------------------------------------------------------ packages
install_packages() {
  local missing=()
  command -v dovecot >/dev/null 2>&1 || missing+=(dovecot-imapd)
  [ -x /usr/lib/dovecot/lmtp ] || missing+=(dovecot-lmtpd)
  command -v postfix >/dev/null 2>&1 || missing+=(postfix)
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing ${missing[*]}"
  # The packages' maintainer scripts try to start the system services; a
  # policy-rc.d that exits 101 forbids that (Debian policy, invoke-rc.d).
  local own_policy=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 0755 /usr/sbin/policy-rc.d
    own_policy=yes
  fi
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  [ -n "$own_policy" ] && rm -f /usr/sbin/policy-rc.d
  say "installed"
}
install_packages

# ------------------------------------------------------------------ reset
if [ -e "$dir" ]; then
  MAILSTACK_DIR=$dir MAILSTACK_KEEP=0 bash "$here/mailstack-down.sh" >/dev/null || true
  rm -rf "$dir"
fi

# ------------------------------------------------------------------ ports
# After the reset, so a stack this script started before frees its ports.
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
taken=" "
choose_port() { # variable default: sets the variable to the port to use
  local var=$1 def=$2 p
  p=${!var:-$def}
  if [ "$p" = auto ]; then
    p=$def
    while port_busy "$p" || [[ $taken == *" $p "* ]]; do p=$((p + 1)); done
  elif ! [[ $p =~ ^[0-9]+$ ]]; then
    die "$var=$p is neither a port number nor 'auto'"
  elif port_busy "$p"; then
    die "127.0.0.1:$p ($var) is in use; stop what listens there, or set $var=auto"
  fi
  taken+="$p "
  printf -v "$var" %s "$p"
}
choose_port MAILSTACK_IMAP_PORT 10143
choose_port MAILSTACK_SMTP_PORT 10025
choose_port MAILSTACK_LMTP_PORT 10024
choose_port MAILSTACK_OAUTH2_PORT 10080
imap_port=$MAILSTACK_IMAP_PORT smtp_port=$MAILSTACK_SMTP_PORT lmtp_port=$MAILSTACK_LMTP_PORT
oauth2_port=$MAILSTACK_OAUTH2_PORT

dv=$dir/dovecot pf=$dir/postfix
mkdir -p "$dv/run" "$dv/state" "$dv/log" "$dir/mail" "$pf/etc" "$pf/queue" "$pf/data" "$pf/log"
chmod 0755 "$dir"
mail_uid=$(id -u nobody)
mail_gid=$(getent group nogroup | cut -d: -f3)
chown nobody:nogroup "$dir/mail" # maildirs are written by Dovecot as nobody
chown postfix "$pf/data"        # Postfix's master keeps its lock file here

# ------------------------------------------------------------------ dovecot
# Tokens (XOAUTH2, OAUTHBEARER) are checked by the oauth2 passdb at the
# token endpoint of $oauth2_port; passwords by the other passdb.
oauth2_passdb="passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = $dv/oauth2.conf.ext
}"
cat >"$dv/oauth2.conf.ext" <<EOF
introspection_mode = post
introspection_url = http://127.0.0.1:$oauth2_port/introspect
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
EOF
if [ "$users" = "*" ]; then
  auth_config="$oauth2_passdb
passdb {
  driver = static
  mechanisms = plain login
  args = password=$password
}
userdb {
  driver = static
  args = uid=$mail_uid gid=$mail_gid home=$dir/mail/%n allow_all_users=yes
}"
  recipient_map=regexp:$pf/etc/recipients.regexp
  : >"$pf/etc/recipients.regexp"
  for d in $domains; do
    printf '/@%s$/ OK\n' "${d//./\\.}" >>"$pf/etc/recipients.regexp"
  done
else
  auth_config="$oauth2_passdb
passdb {
  driver = passwd-file
  mechanisms = plain login
  args = scheme=PLAIN username_format=%n $dv/users
}
userdb {
  driver = passwd-file
  args = username_format=%n $dv/users
}"
  recipient_map=texthash:$pf/etc/recipients
  : >"$dv/users"
  : >"$pf/etc/recipients"
  for u in $users; do
    # passwd-file fields: user:password:uid:gid:gecos:home:shell:extra
    echo "$u:{PLAIN}$password:$mail_uid:$mail_gid::$dir/mail/$u::" >>"$dv/users"
    for d in $domains; do echo "$u@$d OK" >>"$pf/etc/recipients"; done
  done
  chmod 0644 "$dv/users"
fi

# Dovecot 2.3 syntax (Debian 12). A complete file: no !include of conf.d.
cat >"$dv/dovecot.conf" <<EOF
# Written by taflmail scripts/mailstack-up.sh; removed by mailstack-down.sh.
instance_name = taflmail-mailstack
protocols = imap lmtp
listen = 127.0.0.1
base_dir = $dv/run
state_dir = $dv/state
log_path = $dv/log/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login xoauth2 oauthbearer
mail_location = maildir:~/Maildir
first_valid_uid = 1
namespace inbox {
  inbox = yes
  separator = /
}
$auth_config
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $imap_port
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $lmtp_port
  }
  unix_listener lmtp {
    mode = 0666
  }
}
service stats {
  unix_listener stats-writer {
    mode = 0666
  }
}
protocol lmtp {
  postmaster_address = postmaster@$first_domain
}
EOF

# ------------------------------------------------------------------ postfix
cp /etc/postfix/master.cf "$pf/etc/master.cf"
cat >"$pf/etc/main.cf" <<EOF
# Written by taflmail scripts/mailstack-up.sh; removed by mailstack-down.sh.
compatibility_level = 3.6
queue_directory = $pf/queue
data_directory = $pf/data
maillog_file_prefixes = /var, /dev/stdout, $dir
maillog_file = $pf/log/postfix.log
mail_owner = postfix
setgid_group = postdrop
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mail.$first_domain
mydomain = $first_domain
myorigin = \$mydomain
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
smtpd_banner = \$myhostname ESMTP taflmail test stack
virtual_mailbox_domains = ${domains// /, }
virtual_mailbox_maps = $recipient_map
virtual_transport = lmtp:inet:127.0.0.1:$lmtp_port
# The off-box guard: anything not for our domains fails at once.
default_transport = error:off-box delivery disabled in the taflmail test stack
relay_transport = error:off-box delivery disabled in the taflmail test stack
relayhost =
smtp_dns_support_level = disabled
biff = no
smtpd_error_sleep_time = 0
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 5s
EOF
# Drop the public smtp/inet service, add a loopback listener on our port,
# and run every service outside a chroot (the queue is not under /var).
postconf -c "$pf/etc" -M# smtp/inet
postconf -c "$pf/etc" -M "127.0.0.1:$smtp_port/inet=127.0.0.1:$smtp_port inet n - n - - smtpd"
postconf -c "$pf/etc" -F '*/*/chroot = n'
say "configured in $dir"

# ------------------------------------------------------------------ start
wait_for_port() { # port, seconds
  local deadline=$((SECONDS + $2))
  while [ $SECONDS -le $deadline ]; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.05
  done
  die "nothing listens on 127.0.0.1:$1 after $2 s"
}

# Dovecot's master and log process keep the caller's stdout/stderr open for
# as long as they run; detach them so "mailstack-up.sh | tee" can finish.
dovecot -c "$dv/dovecot.conf" </dev/null >>"$dv/log/start.log" 2>&1 \
  || { cat "$dv/log/start.log" "$dv/log/dovecot.log" >&2 2>/dev/null; die "dovecot did not start"; }
# Postfix reports start-up errors to syslog only, unless stdout is a
# terminal: 'script' lends it one so the reason lands in start.log.
script -qec "postfix -c $pf/etc start" /dev/null >"$pf/log/start.log" 2>&1 \
  || { cat "$pf/log/start.log" "$pf/log/postfix.log" >&2 2>/dev/null; die "postfix did not start"; }
wait_for_port "$imap_port" 10
wait_for_port "$lmtp_port" 10
wait_for_port "$smtp_port" 10
say "dovecot (pid $(cat "$dv/run/master.pid")) and postfix (pid $(tr -d ' ' <"$pf/queue/pid/master.pid")) are up"

# ------------------------------------------------------------------ smoke test
# One mail through Postfix → LMTP → Dovecot, found with doveadm, then removed.
probe_user=${users%% *}
[ "$probe_user" = "*" ] && probe_user=mailstack-probe
subject="mailstack probe $$"
smtp_say() { # command (empty: only read the reply); fails on a 4xx/5xx reply
  [ -n "$1" ] && printf '%s\r\n' "$1" >&3
  local reply
  while IFS= read -r -t 10 reply <&3; do
    [[ $reply =~ ^[0-9]{3}- ]] || break
  done
  [[ ${reply:-} =~ ^[23] ]] || die "smoke test: '${1:-greeting}' got '${reply:-no reply}'"
}
exec 3<>"/dev/tcp/127.0.0.1/$smtp_port"
smtp_say ""
smtp_say "EHLO localhost"
smtp_say "MAIL FROM:<probe@$first_domain>"
smtp_say "RCPT TO:<$probe_user@$first_domain>"
smtp_say "DATA"
smtp_say "$(printf 'From: probe@%s\r\nSubject: %s\r\n\r\nprobe\r\n.' "$first_domain" "$subject")"
smtp_say "QUIT"
exec 3<&-
doveadm=(doveadm -c "$dv/dovecot.conf")
found=0
for _ in $(seq 100); do
  found=$("${doveadm[@]}" search -u "$probe_user" mailbox INBOX HEADER Subject "$subject" 2>/dev/null | wc -l)
  [ "$found" -gt 0 ] && break
  sleep 0.1
done
[ "$found" -gt 0 ] || { tail -n 20 "$pf/log/postfix.log" "$dv/log/dovecot.log" >&2; die "smoke test mail was not delivered"; }
"${doveadm[@]}" expunge -u "$probe_user" mailbox INBOX HEADER Subject "$subject"
say "smoke test passed (SMTP → LMTP → IMAP)"

# ------------------------------------------------------------------ env
cat >"$dir/env" <<EOF
MAILSTACK_DIR=$dir
MAILSTACK_IMAP_ADDR=127.0.0.1:$imap_port
MAILSTACK_SMTP_ADDR=127.0.0.1:$smtp_port
MAILSTACK_LMTP_ADDR=127.0.0.1:$lmtp_port
MAILSTACK_OAUTH2_ADDR=127.0.0.1:$oauth2_port
MAILSTACK_DOMAINS="$domains"
MAILSTACK_USERS="$users"
MAILSTACK_PASSWORD=$password
MAILSTACK_DOVEADM="doveadm -c $dv/dovecot.conf"
EOF
cat "$dir/env"
say "up: $(dovecot --version | cut -d' ' -f1) / postfix $(postconf -h -d mail_version)"
