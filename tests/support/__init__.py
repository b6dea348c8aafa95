"""What the tests need beside the app: real servers, a browser, an HTTP client, the image and compose
setups run on this machine. The lab (bench/) uses it too; it uses nothing of the lab."""
