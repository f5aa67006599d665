-- +goose Up
-- Studies, their artifacts and public share links (issue 10).
--
-- Linked jobs and batches are kept as id arrays without a foreign key: the
-- jobs table is written by a later issue, and a study should outlive the
-- deletion of a job it cites. The service checks, when the jobs table is
-- there, that every linked id is a job (or a batch) of the same
-- organization.
CREATE TABLE studies (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    title            text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    description      text NOT NULL DEFAULT '' CHECK (length(description) <= 10000),
    turbine_id       uuid REFERENCES turbines (id) ON DELETE SET NULL,
    job_ids          uuid[] NOT NULL DEFAULT '{}' CHECK (cardinality(job_ids) <= 100),
    batch_ids        uuid[] NOT NULL DEFAULT '{}' CHECK (cardinality(batch_ids) <= 100),
    author_id        uuid REFERENCES users (id) ON DELETE SET NULL,
    -- The share link: only the SHA-256 of the token is kept; NULL means the
    -- link is disabled. Lookups go by the digest, so neither the database
    -- nor index timing ever depends on the secret itself.
    share_token_hash bytea CHECK (share_token_hash IS NULL OR length(share_token_hash) = 32),
    share_enabled_at timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX studies_org_created ON studies (organization_id, created_at DESC, id);
CREATE UNIQUE INDEX studies_share_token_hash_key ON studies (share_token_hash) WHERE share_token_hash IS NOT NULL;

-- Uploaded files of a study; the bytes live in the blob store under
-- blob_key (one tree holding one file), deleted after the row is.
CREATE TABLE study_artifacts (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    study_id        uuid NOT NULL REFERENCES studies (id) ON DELETE CASCADE,
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    content_type    text NOT NULL DEFAULT 'application/octet-stream',
    size_bytes      bigint NOT NULL CHECK (size_bytes >= 0),
    sha256          text NOT NULL CHECK (length(sha256) = 64),
    blob_key        text NOT NULL,
    uploaded_by     uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX study_artifacts_study_name_key ON study_artifacts (study_id, name);

-- +goose Down
DROP TABLE study_artifacts;
DROP TABLE studies;
