//! Synthetic OpenAPI documents of N operations, for the scaling benchmark.
//!
//! Each group of four operations (list, create, get, update) shares a path
//! pair and a component schema; every operation has path or query
//! parameters, writes take a JSON body by `$ref`, and responses reference
//! the component, so generation exercises parameters, bodies, `$ref`
//! resolution and output schemas the way real documents do.

use std::fmt::Write as _;

/// The JSON text of a document with exactly `operations` operations.
pub(crate) fn document(operations: usize) -> String {
    let groups = operations.div_ceil(4);
    let mut paths = String::new();
    let mut schemas = String::new();
    let mut remaining = operations;
    for group in 0..groups {
        let take = remaining.min(4);
        remaining -= take;
        if group > 0 {
            paths.push(',');
            schemas.push(',');
        }
        let schema = format!("Item{group}");
        let _ = write!(
            schemas,
            r##""{schema}":{{"type":"object","required":["id","name"],"properties":{{"id":{{"type":"integer","format":"int64","readOnly":true}},"name":{{"type":"string","description":"The name of item {group}."}},"tags":{{"type":"array","items":{{"type":"string"}}}},"status":{{"type":"string","enum":["active","archived"]}},"parent":{{"$ref":"#/components/schemas/{schema}"}}}}}}"##
        );
        let list = format!(
            r##""get":{{"operationId":"list_items_{group}","summary":"List items of group {group}","tags":["group{tag}"],"parameters":[{{"name":"limit","in":"query","schema":{{"type":"integer","minimum":1,"maximum":100}}}},{{"name":"status","in":"query","schema":{{"type":"string","enum":["active","archived"]}}}}],"responses":{{"200":{{"description":"The items","content":{{"application/json":{{"schema":{{"type":"array","items":{{"$ref":"#/components/schemas/{schema}"}}}}}}}}}}}}}}"##,
            tag = group % 10
        );
        let create = format!(
            r##""post":{{"operationId":"create_item_{group}","summary":"Create an item of group {group}","requestBody":{{"required":true,"content":{{"application/json":{{"schema":{{"$ref":"#/components/schemas/{schema}"}}}}}}}},"responses":{{"201":{{"description":"Created","content":{{"application/json":{{"schema":{{"$ref":"#/components/schemas/{schema}"}}}}}}}}}}}}"##
        );
        let get = format!(
            r##""get":{{"operationId":"get_item_{group}","summary":"Get an item of group {group}","parameters":[{{"name":"X-Request-Id","in":"header","schema":{{"type":"string"}}}}],"responses":{{"200":{{"description":"The item","content":{{"application/json":{{"schema":{{"$ref":"#/components/schemas/{schema}"}}}}}}}},"404":{{"description":"Not found"}}}}}}"##
        );
        let update = format!(
            r##""put":{{"operationId":"update_item_{group}","summary":"Replace an item of group {group}","requestBody":{{"content":{{"application/json":{{"schema":{{"$ref":"#/components/schemas/{schema}"}}}}}}}},"responses":{{"200":{{"description":"Updated","content":{{"application/json":{{"schema":{{"$ref":"#/components/schemas/{schema}"}}}}}}}}}}}}"##
        );
        let collection: Vec<&str> = [&list, &create]
            .into_iter()
            .take(take.min(2))
            .map(String::as_str)
            .collect();
        let _ = write!(
            paths,
            r#""/groups/{group}/items":{{{}}}"#,
            collection.join(",")
        );
        if take > 2 {
            let item: Vec<&str> = [&get, &update]
                .into_iter()
                .take(take - 2)
                .map(String::as_str)
                .collect();
            let _ = write!(
                paths,
                r#","/groups/{group}/items/{{itemId}}":{{"parameters":[{{"name":"itemId","in":"path","required":true,"schema":{{"type":"integer"}}}}],{}}}"#,
                item.join(",")
            );
        }
    }
    format!(
        r#"{{"openapi":"3.0.3","info":{{"title":"Synthetic API of {operations} operations","version":"1.0.0"}},"servers":[{{"url":"http://127.0.0.1:9/api"}}],"paths":{{{paths}}},"components":{{"schemas":{{{schemas}}}}}}}"#
    )
}

#[cfg(test)]
mod tests {
    use super::document;

    #[test]
    fn counts_operations_exactly() {
        for n in [0, 1, 2, 3, 4, 5, 10, 11] {
            let doc = document(n);
            let count = ["\"get\":", "\"post\":", "\"put\":"]
                .iter()
                .map(|m| doc.matches(m).count())
                .sum::<usize>();
            assert_eq!(count, n, "{doc}");
        }
    }
}
