//! A query builder generated from the platform's GraphQL schema (php-graphql-oqm's
//! `<Type>QueryObject` classes) selects a field by its name: `$this->selectField("canDestroy")`
//! in the class of `PackageBase`, `new RunnerPlatformConnectionQueryObject("runnerPlatforms")`
//! at the query root. The class's type is the field's parent; a builder of another API's schema
//! (a shop's `totalWeight`) is not the platform's, and an element that counts only without an
//! argument (a runner's `projects` without `sort`) is the caller's. Fixtures written for these
//! tests.

mod common;

const PACKAGE_BASE: &str = r#"<?php

namespace GraphQL\SchemaObject;

class PackageBaseQueryObject extends QueryObject
{
    const OBJECT_NAME = "PackageBase";

    public function selectCanDestroy()
    {
        $this->selectField("canDestroy");

        return $this;
    }

    public function selectName()
    {
        $this->selectField("name");

        return $this;
    }
}
"#;

const ROOT: &str = r#"<?php

namespace GraphQL\SchemaObject;

class RootQueryObject extends QueryObject
{
    const OBJECT_NAME = "query";

    public function selectRunnerPlatforms(RootRunnerPlatformsArgumentsObject $argsObject = null)
    {
        $object = new RunnerPlatformConnectionQueryObject("runnerPlatforms");
        if ($argsObject !== null) {
            $object->appendArguments($argsObject->toArray());
        }
        $this->selectField($object);

        return $object;
    }
}
"#;

const CI_RUNNER: &str = r#"<?php

namespace GraphQL\SchemaObject;

class CiRunnerQueryObject extends QueryObject
{
    const OBJECT_NAME = "CiRunner";

    public function selectProjects(CiRunnerProjectsArgumentsObject $argsObject = null)
    {
        $object = new ProjectConnectionQueryObject("projects");
        if ($argsObject !== null) {
            $object->appendArguments($argsObject->toArray());
        }
        $this->selectField($object);

        return $object;
    }

    public function selectIpAddress()
    {
        $this->selectField("ipAddress");

        return $this;
    }
}
"#;

const SHOP: &str = r#"<?php

namespace ShopAdmin\SchemaObject;

class OrderQueryObject extends QueryObject
{
    const OBJECT_NAME = "Order";

    public function selectTotalWeight()
    {
        $this->selectField("totalWeight");

        return $this;
    }
}
"#;

#[test]
fn fields_selected_by_generated_builders_are_found_under_their_types() {
    let found = common::scan_files(&[
        ("src/SchemaObject/PackageBaseQueryObject.php", PACKAGE_BASE),
        ("src/SchemaObject/RootQueryObject.php", ROOT),
        ("shop/SchemaObject/OrderQueryObject.php", SHOP),
        ("src/SchemaObject/CiRunnerQueryObject.php", CI_RUNNER),
    ]);
    common::assert_found(
        &found,
        &[
            (
                "src/SchemaObject/PackageBaseQueryObject.php",
                11,
                "graphql-can-destroy-can-delete",
            ),
            (
                "src/SchemaObject/RootQueryObject.php",
                11,
                "graphql-runner-platforms-setup",
            ),
            (
                "src/SchemaObject/CiRunnerQueryObject.php",
                22,
                "graphql-ci-runner-manager-fields",
            ),
        ],
    );
    // A runner's `projects` counts only without a `sort`: the builder cannot tell.
    assert_eq!(found.len(), 3, "{found:?}");
}
