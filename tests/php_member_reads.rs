//! A PHP member read of a decoded response (`$rawMR->merge_status`) is a field read like
//! Python's `mr.merge_status`: it counts where the variable is named for the resource in a file
//! that names the platform, in the API's own spelling. The application's own model
//! (`$MR->mergeStatus`), a file that names another host, and one that names none are silent.
//! Fixtures written for these tests.

mod common;

const ID: &str = "mr-merge-status";

const VIEW: &str = r#"<?php /* The merge request as GitLab returns it. */ ?>
<?php if(empty($rawMR)): ?>
  <p><?php echo $lang->mr->notFound; ?></p>
<?php else: ?>
  <td><?php echo zget($lang->mr->statusList, $rawMR->merge_status); ?></td>
  <td><?php echo $MR->mergeStatus; ?></td>
  <td><?php echo $rawMR->has_conflicts ? 'yes' : 'no'; ?></td>
<?php endif; ?>
"#;

#[test]
fn a_member_read_of_the_platforms_merge_request_is_found() {
    let found = common::scan_files(&[("module/mr/view.html.php", VIEW)]);
    assert_eq!(
        common::lines_of(&found, "module/mr/view.html.php", ID),
        [5],
        "{found:?}"
    );
}

#[test]
fn another_hosts_or_an_unnamed_hosts_merge_request_is_not() {
    let other = VIEW.replace("GitLab", "Bitbucket");
    let unnamed = VIEW.replace(" as GitLab returns it", "");
    let found = common::scan_files(&[
        ("bitbucket/view.html.php", other.as_str()),
        ("host/view.html.php", unnamed.as_str()),
    ]);
    assert!(found.is_empty(), "{found:?}");
}
