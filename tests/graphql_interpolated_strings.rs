//! A GraphQL document in a string whose braces interpolate (Python's f-strings, C#'s `$"…"`)
//! writes each brace of the document twice (`{{`) and its values as `{expr}`: it is read with
//! the doubled braces as one and the interpolations blanked, so the removed runner fields it
//! selects are found; a field of the same name under another object is not. Fixtures written
//! for these tests, modelled on an MCP server for the platform's GraphQL API.

mod common;

const ID: &str = "graphql-ci-runner-manager-fields";

const PY: &str = r#""""Tools of a GitLab GraphQL MCP server."""


def runner_query(rid: str, with_tags: bool) -> str:
    tags = "tagList" if with_tags else ""
    return f"""
query {{
    runner(id: "{rid}") {{
        id
        ipAddress
        version
        {tags}
    }}
}}
"""


def package_query(path: str) -> str:
    return f"""
query {{
    project(fullPath: "{path}") {{
        packages {{ nodes {{ name version }} }}
    }}
}}
"""
"#;

const CS: &str = r#"// Reads a runner of the GitLab instance through its GraphQL API.
namespace Fleet.GitLab;

public static class RunnerQueries
{
    public static string Runner(string id) =>
        $"query {{ runner(id: \"{id}\") {{ revision platformName }} }}";
}
"#;

#[test]
fn documents_in_interpolating_strings_are_read() {
    let found = common::scan_files(&[("server/tools.py", PY), ("src/RunnerQueries.cs", CS)]);
    assert_eq!(
        common::lines_of(&found, "server/tools.py", ID),
        [10, 11],
        "{found:?}"
    );
    assert_eq!(
        common::lines_of(&found, "src/RunnerQueries.cs", ID),
        [7],
        "{found:?}"
    );
}
