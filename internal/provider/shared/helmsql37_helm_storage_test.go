package shared

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
)

func helmStorageObject(t *testing.T, driver, conn attr.Value) types.Object {
	t.Helper()
	obj, diags := types.ObjectValue(helmStorageAttrTypes, map[string]attr.Value{"driver": driver, "sql_connection_string": conn})
	if diags.HasError() {
		t.Fatal(diags)
	}
	return obj
}

// TestHelmStorage_Reads: no block is the Secret driver; driver = "sql"
// takes the connection string from the block, else from Helm's own
// variable; a SQL driver without a connection string, or a connection
// string without it, is an error that does not quote the string.
func TestHelmStorage_Reads(t *testing.T) {
	env := func(v string) func(string) string {
		return func(name string) string {
			if name == helm.SQLConnectionEnv {
				return v
			}
			return ""
		}
	}
	const fromBlock, fromEnv = "postgres://u:block-pw@db/helm", "postgres://u:env-pw@db/helm"
	for _, tc := range []struct {
		name   string
		obj    types.Object
		env    string
		want   helm.Storage
		errMsg string
	}{
		{name: "no block", obj: types.ObjectNull(helmStorageAttrTypes), env: fromEnv, want: helm.Storage{}},
		{name: "secret", obj: helmStorageObject(t, types.StringValue("secret"), types.StringNull()), env: fromEnv, want: helm.Storage{Driver: "secret"}},
		{name: "sql from the block", obj: helmStorageObject(t, types.StringValue("sql"), types.StringValue(fromBlock)), env: fromEnv,
			want: helm.Storage{Driver: "sql", SQLConnection: fromBlock}},
		{name: "sql from the environment", obj: helmStorageObject(t, types.StringValue("sql"), types.StringNull()), env: fromEnv,
			want: helm.Storage{Driver: "sql", SQLConnection: fromEnv}},
		{name: "sql without a connection", obj: helmStorageObject(t, types.StringValue("sql"), types.StringNull()),
			want: helm.Storage{Driver: "sql"}, errMsg: helm.SQLConnectionEnv},
		{name: "a connection without sql", obj: helmStorageObject(t, types.StringNull(), types.StringValue(fromBlock)),
			want: helm.Storage{SQLConnection: fromBlock}, errMsg: "only used with"},
		{name: "unknown connection", obj: helmStorageObject(t, types.StringValue("sql"), types.StringUnknown()),
			want: helm.Storage{Driver: "sql"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, diags := HelmStorage(context.Background(), tc.obj, env(tc.env))
			if got != tc.want {
				t.Errorf("storage = %+v, want %+v", got, tc.want)
			}
			var msg string
			for _, d := range diags.Errors() {
				msg += d.Summary() + ": " + d.Detail()
			}
			if tc.errMsg == "" && msg != "" || !strings.Contains(msg, tc.errMsg) {
				t.Errorf("diagnostics %q, want %q", msg, tc.errMsg)
			}
			if strings.Contains(msg, "-pw") {
				t.Errorf("the diagnostic quotes the connection string: %q", msg)
			}
		})
	}
}

// TestHelmStorage_Masked: the provider's mask knows the connection
// string and its password, so no diagnostic, log line or kept error text
// shows them, however a driver's error quotes them.
func TestHelmStorage_Masked(t *testing.T) {
	for _, conn := range []string{"postgres://helm:pa%2Fss-w0rd@db:5432/helm?sslmode=require", "host=db user=helm password=pa/ss-w0rd dbname=helm"} {
		data := NewProviderData("test", hostaccess.HostSettings{}, nil, SecuritySettings{HelmStorage: helm.Storage{Driver: helm.DriverSQL, SQLConnection: conn}}, Tuning{})
		for _, quoted := range []string{conn, "pq: password authentication failed: pa/ss-w0rd", `parse "` + conn + `": invalid`} {
			if got := data.Security.Scrub(errors.New(quoted).Error()); strings.Contains(got, "pa/ss-w0rd") || strings.Contains(got, "pa%2Fss-w0rd") {
				t.Errorf("scrubbed %q is %q", quoted, got)
			}
		}
	}
}
