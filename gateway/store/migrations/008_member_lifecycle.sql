-- Members as data the operator manages: each has a status (pending → live, live ⇄ suspended),
-- every change is recorded (who, when, what), and a member goes live only on a passing
-- certificate for the current contract major, issued by a certification job kept here so any
-- gateway instance or a separate worker process can run it.

-- Members that existed before this migration already served buyers: they stay live. A member
-- added afterwards starts pending unless its writer says otherwise (the development seed does).
ALTER TABLE members ADD COLUMN status text NOT NULL DEFAULT 'live'
  CHECK (status IN ('pending', 'live', 'suspended'));
ALTER TABLE members ALTER COLUMN status SET DEFAULT 'pending';
-- The state map the member's certification runs with (the kit's state-map JSON), and the load
-- SLOs it declares (certification runs `load` only when they are set).
ALTER TABLE members ADD COLUMN state_map jsonb;
ALTER TABLE members ADD COLUMN slos jsonb;

-- What changed, by whom, when: one row per write to a member or its locations and accounts.
-- `detail` holds the fields before and after, secrets replaced by a mark.
CREATE TABLE member_changes (
  id         bigserial PRIMARY KEY,
  member_id  text NOT NULL REFERENCES members (id),
  actor      text NOT NULL CHECK (actor <> ''),
  action     text NOT NULL CHECK (action <> ''),
  detail     jsonb NOT NULL DEFAULT '{}'::jsonb,
  at         timestamptz NOT NULL
);
CREATE INDEX member_changes_member ON member_changes (member_id, id);

-- queued → running → passed | failed | error. A running job is held by one worker until
-- lease_until; a lease that lapses (its worker stopped) is claimed again, so no job is lost.
-- `attempt` is the fencing token: only the holder of the current attempt may finish the job.
CREATE TABLE certification_jobs (
  id                bigserial PRIMARY KEY,
  member_id         text NOT NULL REFERENCES members (id),
  status            text NOT NULL CHECK (status IN ('queued', 'running', 'passed', 'failed', 'error')),
  contract_version  text NOT NULL,
  requested_by      text NOT NULL CHECK (requested_by <> ''),
  requested_at      timestamptz NOT NULL,
  claimed_by        text,
  lease_until       timestamptz,
  attempt           integer NOT NULL DEFAULT 0 CHECK (attempt >= 0),
  finished_at       timestamptz,
  error             text,
  CONSTRAINT certification_jobs_lease CHECK ((status = 'running') = (lease_until IS NOT NULL))
);
-- At most one open job per member: asking again while one is queued or running finds it.
CREATE UNIQUE INDEX certification_jobs_one_open ON certification_jobs (member_id)
  WHERE status IN ('queued', 'running');
CREATE INDEX certification_jobs_queue ON certification_jobs (status, requested_at);

-- A job's outcome. UNIQUE (job_id): a job issues at most one certificate, however often it ran.
CREATE TABLE certificates (
  id                bigserial PRIMARY KEY,
  job_id            bigint NOT NULL UNIQUE REFERENCES certification_jobs (id),
  member_id         text NOT NULL REFERENCES members (id),
  contract_version  text NOT NULL,
  contract_major    integer NOT NULL CHECK (contract_major >= 0),
  pact_digest       text NOT NULL,
  verdict           text NOT NULL CHECK (verdict IN ('passed', 'failed')),
  -- The findings that decided the verdict, and the whole report (the kit's JSON report).
  findings          jsonb NOT NULL DEFAULT '[]'::jsonb,
  report            jsonb NOT NULL,
  toolkit_version   text NOT NULL,
  issued_at         timestamptz NOT NULL
);
CREATE INDEX certificates_member ON certificates (member_id, issued_at DESC);
