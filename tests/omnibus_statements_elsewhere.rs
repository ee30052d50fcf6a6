//! A `gitlab.rb` statement written outside `gitlab.rb` is the Omnibus setting all the same: an
//! Ansible variable of many lines, a shell heredoc appended to `/etc/gitlab/gitlab.rb`, an
//! `echo` into it, Terraform's user data. It counts where the setting is assigned, in a file
//! that names the platform; a setting only read or compared, and a file that never names the
//! platform, are silent. Fixtures written for these tests.

mod common;

const VARS: &str = r#"---
gitlab_external_url: "https://git.example.org"
gitlab_extra_settings: |
  gitlab_rails['incoming_email_enabled'] = true
  gitlab_rails['incoming_email_delivery_method'] = "sidekiq"
  sidekiq['queue_selector'] = true
  sidekiq['queue_groups'] = ['*'] * 4
"#;

const SETUP: &str = r#"#!/bin/sh
set -eu
cat >> /etc/gitlab/gitlab.rb <<EOF
external_url 'https://git.example.org'
postgres_exporter['per_table_stats'] = true
EOF
echo "gitlab_rails['backup_pg_schema'] = 'backup'" >> /etc/gitlab/gitlab.rb
gitlab-ctl reconfigure
"#;

const USER_DATA: &str = r#"resource "aws_instance" "gitlab" {
  ami           = var.ami
  instance_type = "m5.xlarge"
  user_data     = <<-EOT
    #!/bin/bash
    cat > /etc/gitlab/gitlab.rb <<'RB'
    external_url "https://${var.domain}"
    gitlab_rails['service_desk_email_delivery_method'] = "sidekiq"
    RB
  EOT
}
"#;

#[test]
fn statements_kept_in_other_files_are_found() {
    let found = common::scan_files(&[
        ("group_vars/gitlab.yml", VARS),
        ("scripts/setup.sh", SETUP),
        ("infra/main.tf", USER_DATA),
    ]);
    common::assert_found(
        &found,
        &[
            ("group_vars/gitlab.yml", 5, "email-sidekiq-delivery-method"),
            ("group_vars/gitlab.yml", 6, "sidekiq-queue-selectors"),
            ("scripts/setup.sh", 5, "postgres-exporter-per-table-stats"),
            ("scripts/setup.sh", 7, "backup-pg-schema"),
            ("infra/main.tf", 8, "email-sidekiq-delivery-method"),
        ],
    );
    // `incoming_email_enabled` is no removed setting: one finding in the variable's first lines.
    assert_eq!(
        common::lines_of(
            &found,
            "group_vars/gitlab.yml",
            "email-sidekiq-delivery-method"
        ),
        [5],
        "{found:?}"
    );
}

#[test]
fn settings_read_and_files_without_the_platform_are_not() {
    let read = r#"# Checks the GitLab settings a role rendered.
def check(sidekiq)
  raise "queue selectors are gone" if sidekiq['queue_selector'] == true
end
"#;
    let unnamed = VARS
        .replace("gitlab_external_url", "external_url")
        .replace("gitlab_extra_settings", "extra_settings")
        .replace("gitlab_rails['incoming_email_enabled'] = true", "")
        .replace(
            "gitlab_rails['incoming_email_delivery_method'] = \"sidekiq\"",
            "",
        );
    // Printed, inside another value, or told in a sentence: no statement of gitlab.rb.
    let printed = "#!/bin/sh\n# Shows what the GitLab upgrade removes.\necho \"gitlab_rails['backup_pg_schema'] = 'x'\"\nNOTE=\"sidekiq['negate'] = true\"\n";
    let prose =
        "gitlab_notes: |\n  sidekiq['queue_selector'] = true is what the old setup wrote.\n";
    let found = common::scan_files(&[
        ("lib/check.rb", read),
        ("group_vars/all.yml", unnamed.as_str()),
        ("bin/notes.sh", printed),
        ("group_vars/notes.yml", prose),
    ]);
    assert!(found.is_empty(), "{found:?}");
}
