-- +goose Up
-- Simulation jobs (issue 8). The state machine is documented on
-- turbinesim.JobStatus; the queue entry lives in River's river_job table
-- (created by rivermigrate at start-up), inserted in the same transaction
-- as the row here and the charge in org_usage.
CREATE TABLE jobs (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    status          text NOT NULL DEFAULT 'queued'
                    CHECK (status IN ('queued', 'running', 'cancelling', 'succeeded', 'failed', 'cancelled')),
    -- Finished jobs survive the deletion of their turbine (K's rule in 00020).
    turbine_id      uuid REFERENCES turbines (id) ON DELETE SET NULL,
    batch_id        uuid,
    entrypoint      text NOT NULL CHECK (length(entrypoint) BETWEEN 1 AND 1024),
    submitted_by    uuid REFERENCES users (id) ON DELETE SET NULL,
    client_id       text,
    -- Blob-store keys of the input tree and (on success) the output tree.
    input_key       text NOT NULL,
    output_key      text,
    output_files    jsonb NOT NULL DEFAULT '[]',
    t_max           double precision NOT NULL CHECK (t_max > 0),
    sim_time        double precision NOT NULL DEFAULT 0,
    eta_seconds     double precision,
    -- attempt counts the runs started; a worker's writes are guarded by it,
    -- so a worker that lost its job (killed and rescued) cannot overwrite
    -- the state written by the attempt that replaced it.
    attempt         integer NOT NULL DEFAULT 0,
    max_attempts    integer NOT NULL DEFAULT 3 CHECK (max_attempts >= 1),
    detail          text,
    log             text NOT NULL DEFAULT '',
    -- Billing: one charge in the submit transaction; refunded_at is set
    -- exactly once, in the transaction that returns the charge.
    price_cents     bigint NOT NULL CHECK (price_cents >= 0),
    tokens          bigint NOT NULL CHECK (tokens >= 0),
    charge_month    date NOT NULL,
    refunded_at     timestamptz,
    idempotency_key text,
    request_hash    text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    started_at      timestamptz,
    finished_at     timestamptz,
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CHECK ((status IN ('succeeded', 'failed', 'cancelled')) = (finished_at IS NOT NULL))
);
CREATE INDEX jobs_org_created ON jobs (organization_id, created_at DESC, id);
CREATE INDEX jobs_org_status ON jobs (organization_id, status);
CREATE INDEX jobs_turbine_active ON jobs (turbine_id) WHERE status IN ('queued', 'running', 'cancelling');
CREATE UNIQUE INDEX jobs_org_idempotency_key ON jobs (organization_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;

-- Plug the jobs table into the turbine delete guard of 00020: a turbine
-- referenced by a job that is not finished cannot be deleted (409).
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION turbine_has_active_job(turbine uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM jobs
                    WHERE turbine_id = turbine AND status IN ('queued', 'running', 'cancelling'))
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION turbine_has_active_job(turbine uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$ SELECT false $$;
-- +goose StatementEnd
DROP TABLE jobs;
