# kexp plot; run `gnuplot test_accuracy_vs_dataset.n.gp` here to redraw test_accuracy_vs_dataset.n.svg
set terminal svg size 1000,691 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_dataset.n.svg'
set title 'test accuracy against n_train'
set xlabel 'n_train (training points)'
set ylabel 'test accuracy'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'Each point: the cell with the highest test_accuracy over kernel.features.' at screen 0.01, screen 0.0521 left font ',12'
set label 101 'Points: one run each, so no bars.' at screen 0.01, screen 0.0203 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('250' 250, '500' 500, '1000' 1000, '2000' 2000, '4000' 4000, '10000' 10000, '20000' 20000, '40000' 40000, '100000' 100000)
set logscale x
$line0 << EOD
250 1 1 1
500 0.952 0.952 0.952
1000 0.964 0.964 0.964
2000 0.984 0.984 0.984
4000 0.973 0.973 0.973
10000 0.9788 0.9788 0.9788
20000 0.9738 0.9738 0.9738
40000 0.976 0.976 0.976
100000 0.97572 0.97572 0.97572
EOD
$line1 << EOD
250 0.9838709677419355 0.9838709677419355 0.9838709677419355
500 0.952 0.952 0.952
1000 0.964 0.964 0.964
2000 0.982 0.982 0.982
4000 0.973 0.973 0.973
10000 0.9796 0.9796 0.9796
20000 0.9748 0.9748 0.9748
40000 0.9762 0.9762 0.9762
100000 0.97628 0.97628 0.97628
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'gaussian · linear_svc (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'gaussian · svc shrinking=true (dual)'
