// What the seven builds left in the registry and in the project.
def get = { String path -> new URL(quireUrl + path).text }

assert get('/subjects/orders-value/versions') == '[1,2]' : 'version 1 applied, the incompatible one refused, version 2 applied'
assert get('/subjects/common%2Fcustomer/versions') == '[1]'
def v1 = get('/subjects/orders-value/versions/1')
assert v1.contains('"subject":"common/customer"') : 'the reference by subject: ' + v1
def audit = get('/audit?subject=orders-value')
assert audit.contains('"changeId":"sample-1"') && audit.contains('"message":"orders and their customer"') : audit

def downloaded = new File(basedir, 'target/downloaded')
assert new File(downloaded, 'orders-value.avsc').isFile()
assert new File(downloaded, 'common/customer.avsc').isFile()
assert new File(downloaded, 'orders-value.yaml').text.contains('common/customer')

return true
