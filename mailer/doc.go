// Package mailer is taflmail's mail boundary: it reads players' mail from an
// IMAP mailbox, turns each raw message into a [Message] the referee can work
// with, and sends the referee's replies over SMTP.
//
// It is built on github.com/emersion/go-imap/v2, github.com/emersion/go-smtp
// and github.com/emersion/go-message, but never exports their types: callers
// see [Message], [Outgoing], [Inbox], [Sender] and two kinds of error,
// [*SendError] and errors wrapping [ErrConnection].
//
// Standards followed:
//
//   - RFC 5322 (message format), RFC 2045–2047 (MIME, encoded words),
//     RFC 2231 via [mime.ParseMediaType] and [mime.FormatMediaType] (file
//     names of [Attachment]), RFC 2183 (Content-Disposition), RFC 3676
//     (format=flowed),
//     RFC 3834 (Auto-Submitted), RFC 3464/6522 (delivery status reports).
//   - RFC 5322 §3.4 and RFC 5321 §4.1.2 (address fields, quoted local
//     parts), RFC 8601 (Authentication-Results), RFC 7489 §3.1 (relaxed
//     alignment by organizational domain).
//   - RFC 9051 / RFC 3501 (IMAP4rev2 / IMAP4rev1; BODYSTRUCTURE, partial
//     BODY[] fetches, INTERNALDATE), RFC 2177 (IDLE), RFC 6851 (MOVE),
//     RFC 4315 (UIDPLUS).
//   - RFC 5321 (SMTP), RFC 3207 (STARTTLS), RFC 4954 and RFC 4616 (AUTH PLAIN).
//   - RFC 7628 (SASL OAUTHBEARER) and Google's SASL XOAUTH2, for OAuth2
//     access tokens (RFC 6749, RFC 6750) at IMAP and SMTP.
//
// The parsing half ([Parse], [StripQuoted], [Outgoing.Bytes]) is pure and
// works on bytes; the network half ([DialInbox], [NewSender]) is tested
// against the in-process servers of package mailer/devstack and, when the
// MAILSTACK_* environment is set, against Dovecot and Postfix
// (see scripts/mailstack-up.sh).
package mailer
