//! Issue 35, configuration side, third round: forms of runner registration that the tuning
//! parts of `tests/realworld/sampled-cfg.yaml` and `sampled-cfg2.yaml` (and the probes written
//! after them) showed missing, each found at its line, and the look-alikes next to them silent.
//! The fixtures are written here, modelled on (not copied from) the public files seen: a Docker
//! image of the runner under its old name `gitlab-ci-multi-runner`, a jsonnet Kubernetes
//! manifest whose text block runs the runner image's `/entrypoint register`, and a Salt state
//! whose `cmd.run` writes the register command over the lines of a folded YAML scalar.

mod common;
use common::{findings_of as of, lines, scan_files as scan};

const TOKEN: &str = "runner-registration-token";
const ARGS: &str = "runner-register-server-side-arguments";

/// `gitlab-ci-multi-runner` is the runner's name before 10.0: its `register` takes the same
/// flags, and the removed ones are found on their lines (not only the distinctive
/// `--registration-token`). Another program's `register --tag-list` stays silent.
#[test]
fn register_under_the_runners_old_name_reports_every_removed_flag() {
    let sh = r#"#!/bin/sh
set -e
if [ ! -f /etc/gitlab-runner/config.toml ]; then
  gitlab-ci-multi-runner register --non-interactive \
    --url "${CI_SERVER_URL}" \
    --registration-token "${RUNNER_TOKEN}" \
    --executor docker --docker-image alpine:3 \
    --tag-list "docker,${HOSTNAME}" \
    --run-untagged=false \
    --locked=true
fi
exec gitlab-ci-multi-runner run --user=gitlab-runner
"#;
    let found = scan(&[("docker/start.sh", sh)]);
    assert_eq!(
        of(&found, "docker/start.sh"),
        lines(&[(6, TOKEN), (8, ARGS), (9, ARGS), (10, ARGS)]),
        "{found:?}"
    );

    let other = sh
        .replace("gitlab-ci-multi-runner", "build-agent-multi")
        .replace("gitlab-runner", "build-agent")
        .replace("--registration-token", "--join-token")
        .replace("--run-untagged", "--any-label");
    let found = scan(&[("docker/agent.sh", &other)]);
    assert!(of(&found, "docker/agent.sh").is_empty(), "{found:?}");
}

/// The runner image's entrypoint (`/entrypoint`, which runs `gitlab-runner "$@"`) written as
/// the program of `register`, in a jsonnet text block of a manifest that runs the image: its
/// removed flags are found. The same entrypoint of another image stays silent.
#[test]
fn the_runner_images_entrypoint_register_reports_its_removed_flags() {
    let jsonnet = r#"local kube = import "kube.libsonnet";
{
  runner: kube.Deployment("ci-runner") {
    spec+: { template+: { spec+: {
      containers_+: {
        runner: kube.Container("runner") {
          image: "gitlab/gitlab-runner:alpine-v11.2.0",
          command: ["/bin/sh", "-e", "-c",
            |||
              /entrypoint register --non-interactive \
                --executor kubernetes \
                --tag-list cluster,arm64 \
                --locked=false \
                --url https://gitlab.example.org/
              exec /entrypoint run --working-directory=/home/gitlab-runner
            |||
          ],
        },
      },
    } } },
  },
}
"#;
    let found = scan(&[("deploy/ci-runner.jsonnet", jsonnet)]);
    assert_eq!(
        of(&found, "deploy/ci-runner.jsonnet"),
        lines(&[(12, ARGS), (13, ARGS)]),
        "{found:?}"
    );

    let other = jsonnet
        .replace(
            "gitlab/gitlab-runner:alpine-v11.2.0",
            "example/build-agent:2",
        )
        .replace("/home/gitlab-runner", "/home/agent");
    let found = scan(&[("deploy/agent.jsonnet", &other)]);
    assert!(of(&found, "deploy/agent.jsonnet").is_empty(), "{found:?}");
}

/// A Salt state's `cmd.run` whose `name: >-` folds the register command over several lines
/// without backslashes, and cloud-init user data folding it into a `runcmd` item: every removed
/// flag is found on its line, as in an Ansible task. A folded command of another program stays
/// silent.
#[test]
fn register_folded_over_the_lines_of_a_salt_state_reports_every_flag() {
    let sls = r#"{% set runner = salt['pillar.get']('ci:runner') %}
register-ci-runner:
  cmd.run:
    - name: >-
        gitlab-runner register --non-interactive
        --url {{ runner.url }}
        --registration-token {{ runner.token }}
        --tag-list {{ runner.tags | join(',') }}
        --access-level ref_protected
        --executor shell
    - unless: gitlab-runner list 2>&1 | grep -q {{ grains['id'] }}
"#;
    let found = scan(&[("salt/ci/runner.sls", sls)]);
    assert_eq!(
        of(&found, "salt/ci/runner.sls"),
        lines(&[(7, TOKEN), (8, ARGS), (9, ARGS)]),
        "{found:?}"
    );

    // cloud-init user data (`#cloud-config`, a file without extension read for its commands)
    // folding the command into one `runcmd` item.
    let user_data = "#cloud-config
package_update: true
runcmd:
  - apt-get install -y gitlab-runner
  - >-
    gitlab-runner register --non-interactive
    --url https://gitlab.example.org/
    --registration-token ${runner_token}
    --executor docker --docker-image alpine:3
    --tag-list aws,docker
    --locked=false
";
    let found = scan(&[("runner/user-data", user_data)]);
    assert_eq!(
        of(&found, "runner/user-data"),
        lines(&[(8, TOKEN), (10, ARGS), (11, ARGS)]),
        "{found:?}"
    );

    let other = sls
        .replace("gitlab-runner", "build-agent")
        .replace("--registration-token", "--join-token");
    let found = scan(&[("salt/ci/agent.sls", &other)]);
    assert!(of(&found, "salt/ci/agent.sls").is_empty(), "{found:?}");
}

/// cloud-init's `runcmd` item written as an unquoted YAML flow list (`- [gitlab-runner,
/// register, …]`): the flags are its items, found on their lines, also when the list goes on
/// over the next line. Another program's list in the same file stays silent.
#[test]
fn register_as_an_unquoted_flow_list_of_cloud_init_reports_its_flags() {
    let user_data = "#cloud-config
runcmd:
  - [sh, -c, 'curl -sL https://packages.gitlab.com/install/repositories/runner/gitlab-runner/script.deb.sh | bash']
  - [apt-get, install, -y, gitlab-runner]
  - [gitlab-runner, register, --non-interactive, --url, 'https://gitlab.example.org/',
     --registration-token, '${token}', --executor, shell, --tag-list, 'vm,shell']
  - [gitlab-runner, register, -n, --locked, 'false']
  - [build-agent, register, --locked, 'false', --paused]
";
    let found = scan(&[("infra/runner-user-data.yaml", user_data)]);
    assert_eq!(
        of(&found, "infra/runner-user-data.yaml"),
        lines(&[(6, TOKEN), (6, ARGS), (7, ARGS)]),
        "{found:?}"
    );
}

/// A third-party runner operator's custom resource whose `registration_config` is the legacy
/// registration (a registration token and the client library's registration options): each
/// server-side argument in it is found, not only `tag_list`. The same operator's newer
/// resource, which creates the runner through `POST /user/runners` (`create_options` with an
/// access token), is the new flow: silent.
#[test]
fn a_runner_operators_registration_config_reports_every_server_side_argument() {
    let legacy = r#"apiVersion: gitlab.k8s.alekc.dev/v1beta2
kind: Runner
metadata:
  name: build-runner
spec:
  gitlab_instance_url: https://gitlab.example.org/
  registration_config:
    token: "GR1348941xxxxxxxx"
    description: k8s build runner
    tag_list:
      - k8s
    run_untagged: false
    locked: true
    access_level: ref_protected
    maximum_timeout: 3600
"#;
    let found = scan(&[("deploy/runner.yaml", legacy)]);
    let found = of(&found, "deploy/runner.yaml");
    for line in [10, 12, 13, 14, 15] {
        assert!(
            found.contains(&(line, ARGS.to_string())),
            "line {line}: {found:?}"
        );
    }

    let managed = r#"apiVersion: gitlab.k8s.alekc.dev/v1beta2
kind: Runner
metadata:
  name: build-runner
spec:
  gitlab_instance_url: https://gitlab.example.org/
  authentication:
    access_token:
      secret_key_ref: {name: gitlab-pat, key: token}
    create_options:
      runner_type: group_type
      group_id: 42
      run_untagged: false
      locked: true
      access_level: ref_protected
      maximum_timeout: 3600
"#;
    let found = scan(&[("deploy/managed.yaml", managed)]);
    assert!(of(&found, "deploy/managed.yaml").is_empty(), "{found:?}");
}

/// A Chef recipe's `execute` whose command string interpolates node attributes with Ruby's
/// `#{…}` (quotes and parentheses inside): the words after an interpolation are read, so the
/// flags after it are found. Another program's command in the same form stays silent.
#[test]
fn register_in_a_ruby_string_with_interpolations_reports_every_flag() {
    let recipe = r#"runner = node['ci_runner']

execute 'register-ci-runner' do
  command "gitlab-runner register -n --url #{runner['url']} --registration-token #{runner['token']} --executor #{runner['executor']} --tag-list #{runner['tags'].join(',')} --locked=false"
  not_if { ::File.exist?('/etc/gitlab-runner/config.toml') }
end

execute 'register-agent' do
  command "build-agent register --url #{runner['url']} --tag-list #{runner['tags'].join(',')} --locked=false"
end
"#;
    let found = scan(&[("cookbooks/ci/recipes/runner.rb", recipe)]);
    assert_eq!(
        of(&found, "cookbooks/ci/recipes/runner.rb"),
        lines(&[(4, TOKEN), (4, ARGS)]),
        "{found:?}"
    );
}

/// Files read for their commands by name: a Nomad job (HCL, `*.nomad`) whose task runs the
/// runner image with `register` and its flags as `args`, and a Vagrantfile (Ruby) whose shell
/// provisioner registers the runner in a heredoc. Each removed flag is found on its line; the
/// same files for another program's image and command stay silent.
#[test]
fn nomad_jobs_and_vagrantfiles_are_read_for_register_flags() {
    let nomad = r#"job "ci-runner" {
  datacenters = ["dc1"]
  group "runner" {
    task "register" {
      driver = "docker"
      config {
        image = "gitlab/gitlab-runner:alpine"
        args = [
          "register", "--non-interactive",
          "--url", "https://gitlab.example.org/",
          "--tag-list", "nomad,docker",
          "--locked=false",
        ]
      }
    }
  }
}
"#;
    let vagrant = r#"Vagrant.configure("2") do |config|
  config.vm.box = "debian/bookworm64"
  config.vm.provision "shell", inline: <<-SHELL
    apt-get install -y gitlab-runner
    gitlab-runner register --non-interactive \
      --url http://192.168.56.10/ --executor shell \
      --tag-list vagrant,shell --access-level not_protected
  SHELL
end
"#;
    let found = scan(&[("jobs/ci-runner.nomad", nomad), ("ci/Vagrantfile", vagrant)]);
    assert_eq!(
        of(&found, "jobs/ci-runner.nomad"),
        lines(&[(11, ARGS), (12, ARGS)]),
        "{found:?}"
    );
    assert_eq!(
        of(&found, "ci/Vagrantfile"),
        lines(&[(7, ARGS)]),
        "{found:?}"
    );

    let other_job = nomad.replace("gitlab/gitlab-runner:alpine", "example/build-agent:2");
    let other_box = vagrant.replace("gitlab-runner", "build-agent");
    let found = scan(&[
        ("jobs/agent.nomad", &other_job),
        ("ci/agent/Vagrantfile", &other_box),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

/// A Windows install script that runs the runner by its quoted path (`& "C:\…\gitlab-runner.exe"
/// register`, the path with a blank in it too): the command's flags after the closing quote are
/// its arguments. A quoted sentence that ends in the program's name, and another program's
/// quoted path, stay silent.
#[test]
fn register_through_a_quoted_program_path_reports_its_flags() {
    let ps1 = r#"$ErrorActionPreference = "Stop"
$runner = "C:\Program Files\GitLab-Runner"
Write-Host "Installing gitlab-runner" --locked
& "C:\Program Files\GitLab-Runner\gitlab-runner.exe" install
& "C:\Program Files\GitLab-Runner\gitlab-runner.exe" register --non-interactive `
  --url "https://gitlab.example.org/" `
  --executor shell --shell pwsh `
  --tag-list "windows,pwsh" `
  --maximum-timeout 7200
& "C:\BuildAgent\agent.exe" register --tag-list "windows" --locked="false"
"#;
    let found = scan(&[("windows/install-runner.ps1", ps1)]);
    assert_eq!(
        of(&found, "windows/install-runner.ps1"),
        lines(&[(8, ARGS), (9, ARGS)]),
        "{found:?}"
    );
}
