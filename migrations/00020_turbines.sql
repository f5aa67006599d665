-- +goose Up
-- Turbine configurations (issue 7). Scalar parameters are nullable: an
-- uploaded deck does not always state every one (the rated power of a deck
-- with the simple ServoDyn controller, the wind-speed band of any deck).
CREATE TABLE turbines (
    id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id       uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name                  text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    description           text NOT NULL DEFAULT '' CHECK (length(description) <= 4000),
    rated_power_kw        double precision,
    rotor_diameter_m      double precision,
    hub_height_m          double precision,
    cut_in_wind_speed_ms  double precision,
    rated_wind_speed_ms   double precision,
    cut_out_wind_speed_ms double precision,
    shaft_tilt_deg        double precision,
    precone_deg           double precision,
    rated_rotor_speed_rpm double precision,
    blade_config          jsonb,
    tower_config          jsonb,
    nacelle_config        jsonb,
    controller_config     jsonb,
    is_validated          boolean NOT NULL DEFAULT false,
    -- demo_id names the bundled reference turbine a demo-derived row was
    -- loaded from; one such row per organization and demo makes the load
    -- endpoint idempotent under concurrent calls.
    demo_id               text,
    -- source_key locates the deck files in the blob store; main_file is the
    -- slash-separated path of the primary .fst inside that tree.
    source_key            text,
    main_file             text,
    created_by            uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX turbines_org_name_key ON turbines (organization_id, name);
CREATE UNIQUE INDEX turbines_org_demo_key ON turbines (organization_id, demo_id) WHERE demo_id IS NOT NULL;

-- Deleting a turbine that an active job references is refused in the
-- database (409 in the API), so no code path can forget the rule.
--
-- How the jobs table plugs in: this migration cannot know the jobs table or
-- which of its statuses are "active", so the check goes through
-- turbine_has_active_job(turbine uuid), which answers false until the jobs
-- migration replaces it (CREATE OR REPLACE FUNCTION, same signature), e.g.
--
--     CREATE OR REPLACE FUNCTION turbine_has_active_job(turbine uuid) RETURNS boolean
--     LANGUAGE sql STABLE AS $$
--         SELECT EXISTS (SELECT 1 FROM jobs
--                         WHERE turbine_id = turbine AND status IN ('queued', 'running'))
--     $$;
--
-- together with jobs.turbine_id uuid REFERENCES turbines (id) ON DELETE SET
-- NULL, so that finished jobs survive the deletion of their turbine. The
-- foreign key also closes the race between a job insert and a delete: the
-- insert takes a KEY SHARE lock on the turbine row, and the BEFORE DELETE
-- trigger runs after DELETE has locked the row, so whichever commits second
-- sees the other.
-- +goose StatementBegin
CREATE FUNCTION turbine_has_active_job(turbine uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$ SELECT false $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION turbines_refuse_delete_with_active_job() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF turbine_has_active_job(OLD.id) THEN
        RAISE EXCEPTION 'turbine % is referenced by an active job', OLD.id
            USING ERRCODE = '23503', CONSTRAINT = 'turbines_active_job';
    END IF;
    RETURN OLD;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER turbines_active_job_guard
    BEFORE DELETE ON turbines
    FOR EACH ROW EXECUTE FUNCTION turbines_refuse_delete_with_active_job();

-- +goose Down
DROP TABLE turbines;
DROP FUNCTION turbines_refuse_delete_with_active_job();
DROP FUNCTION turbine_has_active_job(uuid);
