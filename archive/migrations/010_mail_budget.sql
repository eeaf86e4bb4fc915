-- 010_mail_budget: which reply budget each processed mail was charged to,
-- and its sender's domain (issue 18 §2, docs/security.md "No loops, no
-- floods").
--
-- processed_mails.budget is the budget a mail without the sender's key
-- for a game was counted in: 'junk' (no valid command: answered only
-- within the budgets per sender, per domain and for all senders
-- together), 'command' (a valid command such as a challenge or a join:
-- the budgets per sender and per domain only, counted apart from junk, so
-- junk never uses them up) or 'confirmation' (a confirmation carrying its
-- key: never held back). It is '' for a keyed mail, which no budget
-- counts. sender_domain is the sender's organizational domain (the
-- registrable domain of the Public Suffix List), which the per-domain
-- budget counts by.
ALTER TABLE processed_mails ADD COLUMN budget TEXT NOT NULL DEFAULT '' CHECK (budget IN ('', 'junk', 'command', 'confirmation'));
ALTER TABLE processed_mails ADD COLUMN sender_domain TEXT NOT NULL DEFAULT '';

-- Mails recorded before this migration: a keyless one counts as junk, so
-- an upgrade opens no budget; the domain is what follows the first "@"
-- (the budgets look back an hour at most, so a subdomain counted apart in
-- that hour does not matter).
UPDATE processed_mails SET budget = 'junk' WHERE authenticated = 0;
UPDATE processed_mails SET sender_domain = lower(substr(sender, instr(sender, '@') + 1)) WHERE instr(sender, '@') > 0;

-- the budgets count answered mails by budget and time, overall and per domain
CREATE INDEX processed_mails_budget ON processed_mails (budget, at) WHERE replies > 0;
CREATE INDEX processed_mails_domain ON processed_mails (sender_domain, budget, at) WHERE replies > 0;
